"""The pack language: parse, check, compile."""
