"""The wire tests' checklist: each check prints ok/FAIL with its name (and the detail
of a failure); `failures` collects the failed names for the exit status."""

failures = []


def check(name, cond, detail=""):
    print(("ok    " if cond else "FAIL  ") + name)
    if not cond:
        failures.append(name)
        if detail:
            print("      " + str(detail).replace("\n", "\n      "))
    return cond
