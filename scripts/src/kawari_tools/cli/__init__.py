"""The command lines: one module per console entry point; nothing imports them."""
