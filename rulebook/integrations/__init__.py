"""Rulebook games for other libraries' APIs: OpenSpiel (``openspiel``),
PettingZoo's AEC environment (``pettingzoo``) and its parallel one
(``parallel``), and a Gymnasium env for one seat against bots
(``gymnasium``); ``actions``, ``chance`` and ``features`` are what they
share (stable action ids, explicit chance, what the checked rules can do).
Each API is an optional extra; nothing else in Rulebook imports these
modules. They know no game: everything comes from the ruleset through the
one decision interface (``rulebook.interpreter.game.Game``)."""
