
2
xPlaceholder*
shape
:*
dtype0

aRelub

bRelua