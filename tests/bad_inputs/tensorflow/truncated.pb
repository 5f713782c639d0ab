
2
xPlaceholder*
dtype0*