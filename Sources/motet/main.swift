print("motet: not yet")
