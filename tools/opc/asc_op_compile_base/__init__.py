"""The newer name of CANN's Ascend C compile package: the same OpenCANN stand-ins as tbe."""
