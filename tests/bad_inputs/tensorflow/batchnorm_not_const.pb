
2
xPlaceholder*
shape
:*
dtype0
$
yFusedBatchNormV3xxxxx