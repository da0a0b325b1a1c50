"""The workshop scripts, one per concept (kit/workshop.py); they are read as text, never imported."""
