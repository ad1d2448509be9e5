"""The referee service: ties the engine, vision and the LED bridge together."""
