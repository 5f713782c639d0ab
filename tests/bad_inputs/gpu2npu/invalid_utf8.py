import torch
x = torch.ones(2).cuda()  # ÿþ
