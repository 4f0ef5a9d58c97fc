"""Agents: players that decide through the engine's one decision interface.

``agents.base`` holds the protocol (``Decision``, ``make_agent``) and the
random agent; ``agents.greedy`` and ``agents.mcts`` are the agents that look
ahead, over the determinizations of ``agents.determinize``. They sit on top
of the engine (``interpreter``) and call only its public interface.
"""
