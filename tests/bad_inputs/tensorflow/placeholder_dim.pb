
;
xPlaceholder*
shape:ûÿÿÿÿÿÿÿÿ*
dtype0

yRelux