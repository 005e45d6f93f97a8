"""The built-in ``compressor`` context engine, registered through an entry point like any other."""

from hermes_compressor.engine import CompressorEngine

__all__ = ["CompressorEngine"]
