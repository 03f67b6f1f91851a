print("CoreBench: not written yet")
