
2
xPlaceholder*
dtype0*
shape
:

yFrobnicateV7x