
2
xPlaceholder*
dtype0*
shape
:
$
cConst*
valueB	€€€€€ 

yAddV2xc