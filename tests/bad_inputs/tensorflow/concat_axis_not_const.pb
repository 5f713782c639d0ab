
2
xPlaceholder*
dtype0*
shape
:

yConcatV2xxx