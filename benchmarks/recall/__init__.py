"""The recall benchmark: does the evidence of a question reach the model, inside the window?

Runs the protocol of LoCoMo's development split README (``../shared/data/locomo-dev``)
for keep-the-tail truncation, a BM25 packer and every installed engine. The
data is never part of a distribution; point ``--data`` at LoCoMo-format files.
"""
