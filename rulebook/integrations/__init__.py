"""Other libraries' APIs over the one decision interface (PettingZoo,
OpenSpiel, Gymnasium)."""
