
2
xPlaceholder*
shape
:*
dtype0

yRelux