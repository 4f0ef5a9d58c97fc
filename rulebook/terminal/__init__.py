"""A seat at the terminal: the play loop and the screen drawn with rich."""
