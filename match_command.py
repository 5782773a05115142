# match_command.py: python3 match_command.py DIR ID
import json, shlex, sys

FLAGS = {"decision_ms": "--time-limit-ms", "startup_ms": "--startup-limit-ms",
         "first_decision_ms": "--first-decision-ms", "bank_ms": "--bank-ms",
         "increment_ms": "--increment-ms"}
out, wanted = sys.argv[1], int(sys.argv[2])
meta = json.load(open(f"{out}/tournament.json"))
bots = {bot["name"]: bot for bot in meta["bots"]}
for line in open(f"{out}/matches.jsonl"):
    m = json.loads(line)
    if m["id"] == wanted:
        limits = {json.dumps(bots[name]["limits"], sort_keys=True) for name in m["players"]}
        if len(limits) > 1:
            sys.exit("these bots have limits of their own: use a match file with a [[bot]] each")
        args = ["referee", "match", "--game", meta["game"], "--seed", str(m["seed"])]
        for key, value in json.loads(limits.pop()).items():
            args += [FLAGS[key], str(value)]
        args += ["--max-faults", str(meta["max_faults"])]
        for fault, penalty in meta["policy"].items():
            args += [f"--on-{fault}", penalty]
        args += [f"--option={key}={json.dumps(value)}" for key, value in meta["options"].items()]
        for name in m["players"]:  # in seat order
            args += ["--bot", f"{name}={bots[name]['command']}"]
        print(shlex.join(args))
        print("# scores by seat in the tournament:", m["scores"])
