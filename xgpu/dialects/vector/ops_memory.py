OPS = []
