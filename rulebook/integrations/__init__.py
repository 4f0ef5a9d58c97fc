"""Rulebook games for research tools: OpenSpiel (``openspiel``), Gymnasium
(``gymnasium_env``) and PettingZoo (``parallel_env``, and the AEC env in
``rulebook.integrations.pettingzoo``). Each is an optional extra; nothing else in
Rulebook imports these modules. They know no game: everything comes from the
ruleset through the one decision interface (``interpreter.game.Game``)."""
