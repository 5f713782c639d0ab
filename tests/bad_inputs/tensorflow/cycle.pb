
2
xPlaceholder*
dtype0*
shape
:

aRelub

bRelua