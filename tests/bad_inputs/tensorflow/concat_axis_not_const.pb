
2
xPlaceholder*
shape
:*
dtype0

yConcatV2xxx