
2
xPlaceholder*
shape
:*
dtype0
	
xRelu