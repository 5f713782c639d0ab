
;
xPlaceholder*
dtype0*
shape:ûÿÿÿÿÿÿÿÿ

yRelux