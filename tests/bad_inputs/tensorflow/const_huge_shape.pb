
2
xPlaceholder*
shape
:*
dtype0
$
cConst*
valueB	€€€€€ 

yAddV2xc