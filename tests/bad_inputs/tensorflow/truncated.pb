
2
xPlaceholder*
shape
: