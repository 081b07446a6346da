"""Simulated play above the engine: the simulator, its bots and the mutator (rulebook R16 harnesses)."""
