"""The compiler: a checked ruleset becomes one Python module.

``compiler.build`` runs the whole pipeline (``compile_path``,
``compile_text``); ``compiler.module`` writes the module; ``compiler.load``
turns it into the ``Program`` the engine runs; ``compiler.cache`` keeps
compiled modules between runs.
"""
