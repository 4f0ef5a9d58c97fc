"""Rulebook games for other libraries' APIs: OpenSpiel (``openspiel``) and
PettingZoo's AEC environment (``pettingzoo``). Each is an optional extra;
nothing else in Rulebook imports these modules. They know no game:
everything comes from the ruleset through the one decision interface
(``rulebook.interpreter.game.Game``)."""
