"""OpenCANN: the parts of CANN's impl package that generated operator wrappers import."""
