"""
spec -- a sweep's TOML file expanded into its cells.

A cell is one run of one program under one configuration (preset or config
file plus --set overrides), one repetition.  The expansion is the cartesian
product  programs x presets x variants x [axes] values x repetitions,  in that
order, so the cell list (and each cell's index) is stable while the file is.

    name = "replay"                 # names the study (titles, the Slurm job)
    mode = "timing"                 # or "functional" (presets and --set unused)
    presets = ["turner-2012"]       # presets or config files
    repetitions = 1
    timeout = 1800                  # seconds per cell
    expect = "^PASS"                # a cell passes only if its stdout matches
    stats = ["timing.gpu_sim_cycle", "timing.gpu_ipc"]
    speedup = "timing.gpu_ipc"      # the statistic speedups are taken of
    baseline = "stall"              # the configuration they are taken over

    [vars]                          # {name} in paths and args; --var K=V
    size = "tiny"

    [env]                           # environment of every run
    PTXSIM_PTXAS = "off"

    [[program]]                     # one program
    name = "vector_add"
    path = "{build}/samples/vector_add.nvcc"
    args = ["{size}"]

    [[program]]                     # one program per name
    names = ["matmul_shared", "histogram"]   # or names_from = "FILE"
    path = "{build}/samples/{name}.nvcc"
    args = ["{size}"]

    [[program]]                     # named otherwise in the tables, and
    names = ["histogram"]           # run under some configurations only
    label = "{name} -G"
    path = "{build}/samples/{name}.nvcc-G"
    args = ["{size}"]
    configs = ["stall"]

    [[program]]                     # with an environment of its own (over
    names = ["histogram"]           # [env]; PTXSIM_SM = "75": the simulated
    label = "{name} sm_75"          # device runs the build's sm_75 code)
    path = "{build}/samples/{name}.nvcc"
    args = ["{size}"]
    env = { PTXSIM_SM = "75" }

    [[variant]]                     # an explicit set of overrides
    label = "stall"
    set = { hazard_policy = "stall" }

    [[variant]]                     # a family: the product of its axes
    label = "replay {hp_tracker} {hp_predictor}"
    set = { hazard_policy = "replay" }
    axes = { hp_tracker = ["naive", "credit"], hp_predictor = ["false", "oracle"] }

    [[variant]]                     # run for some of the programs only
    label = "ideal"                 # (the others' cells of it do not exist;
    set = { l1_latency = 1 }        # their tables show "-")
    programs = ["histogram"]

    [axes]                          # applied to every variant (product)
    l1_index = ["linear", "xor"]

    [[best]]                        # a column: per program, the best of these
    label = "opttb"                 # configurations by the speedup statistic
    of = ["base", "tb4", "tb2"]     # (an oracle choice; a tie goes to the first)

    [[best]]                        # ... or, with `like`, the one at the place
    label = "pmode+opttb"           # an earlier best column chose
    of = ["pmode", "pmode tb4", "pmode tb2"]
    like = "opttb"

    [[ratio]]                       # a column: per program, one configuration
    label = "dom/block 4w"          # over another (by the speedup statistic)
    of = "dom 4w"
    over = "block 4w"

{build} is the folder above the ptxsim command's bin/ (--build DIR to
change it) and {spec} the spec file's folder; variables are replaced in
presets, [env] values, program paths, names_from and args.
"""
import hashlib
import itertools
import json
import os
import re
import tomllib

KNOWN = {"name", "mode", "presets", "repetitions", "timeout", "expect", "stats", "speedup", "baseline",
         "vars", "env", "program", "variant", "axes", "best", "ratio"}

DEFAULT_STATS = ["timing.gpu_sim_cycle", "timing.gpu_sim_insn", "timing.gpu_ipc"]


class SpecError(Exception):
    pass


def subst(text, vars_, where):
    """text with each {name} replaced by its variable."""
    def one(m):
        if m.group(1) not in vars_:
            raise SpecError(f"{where}: unknown variable {{{m.group(1)}}} (known: {', '.join(sorted(vars_))})")
        return str(vars_[m.group(1)])
    return re.sub(r"\{(\w+)\}", one, str(text))


def value_str(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def names_from(path):
    """The first column of a tab-separated list, lines with a second column
    (samples.txt: why a sample is pending) left out."""
    out = []
    with open(path) as f:
        for line in f:
            name, _, reason = line.rstrip("\n").partition("\t")
            if name.strip() and not name.startswith("#") and not reason.strip():
                out.append(name.strip())
    return out


def programs(spec, vars_):
    """[(name, path, args, configurations or None for all, environment)] of
    the spec's [[program]] tables."""
    out = []
    for i, p in enumerate(spec.get("program", [])):
        where = f"[[program]] {i + 1}"
        unknown = set(p) - {"name", "names", "names_from", "path", "args", "label", "configs", "env"}
        if unknown:
            raise SpecError(f"{where}: unknown key {', '.join(sorted(unknown))}")
        if "path" not in p:
            raise SpecError(f"{where}: no path")
        args = p.get("args", [])
        if not isinstance(args, list):
            raise SpecError(f"{where}: args must be a list of strings")
        confs = p.get("configs")
        if confs is not None and (not isinstance(confs, list) or not confs):
            raise SpecError(f"{where}: configs must be a non-empty list of configuration labels")
        env = p.get("env", {})
        if not isinstance(env, dict):
            raise SpecError(f"{where}: env must be a table of variables")
        env = {k: subst(value_str(v), vars_, where) for k, v in env.items()}
        if "names" in p or "names_from" in p:
            names = list(p.get("names", []))
            if "names_from" in p:
                src = subst(p["names_from"], vars_, where)
                if not os.path.exists(src):
                    raise SpecError(f"{where}: names_from {src} does not exist")
                names += names_from(src)
        else:
            names = [p.get("name")]
        for n in names:
            v = dict(vars_, name=n or "")
            path = subst(p["path"], v, where)
            label = subst(p["label"], v, where) if "label" in p else n or os.path.basename(path)
            out.append((label, path, [subst(a, v, where) for a in args], confs, env))
    if not out:
        raise SpecError("no [[program]]")
    seen = {}
    for n, path, args, _, env in out:
        if n in seen and seen[n] != (path, args, env):
            raise SpecError(f"two programs named {n}: give each [[program]] its own name (label)")
        seen[n] = (path, args, env)
    return list({n: (n, p, a, c, e) for n, p, a, c, e in out}.values())


def product(axes, where):
    """Every assignment of the axes' values: [{key: value}]."""
    for k, vs in axes.items():
        if not isinstance(vs, list) or not vs:
            raise SpecError(f"{where}: axis {k} must be a non-empty list of values")
    keys = list(axes)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(axes[k] for k in keys))]


def expand(spec, vars_):
    """Every configuration, in expansion order: (label, preset, overrides,
    programs or None for all, the variant, its own axes' values)."""
    presets = spec.get("presets", ["gtx480"])
    if isinstance(presets, str):
        presets = [presets]
    presets = [subst(p, vars_, "presets") for p in presets]
    variants = spec.get("variant", [{}])
    top = product(spec.get("axes", {}), "[axes]")
    out = []
    for preset in presets:
        for i, var in enumerate(variants):
            where = f"[[variant]] {i + 1}"
            unknown = set(var) - {"label", "set", "axes", "programs"}
            if unknown:
                raise SpecError(f"{where}: unknown key {', '.join(sorted(unknown))}")
            only = var.get("programs")
            if only is not None and (not isinstance(only, list) or not only):
                raise SpecError(f"{where}: programs must be a non-empty list of program names")
            for own in product(var.get("axes", {}), where):
                for common in top:
                    sets = dict(var.get("set", {}))
                    sets.update(own)
                    sets.update(common)
                    sets = {k: value_str(v) for k, v in sets.items()}
                    parts = []
                    if len(presets) > 1:
                        parts.append(os.path.basename(preset).removesuffix(".cfg"))
                    if "label" in var:
                        parts.append(subst(var["label"], {k: value_str(v) for k, v in own.items()}, where))
                    elif own:
                        parts.append(" ".join(f"{k}={value_str(v)}" for k, v in own.items()))
                    parts += [f"{k}={value_str(v)}" for k, v in common.items()]
                    label = " ".join(parts) or os.path.basename(preset).removesuffix(".cfg")
                    out.append((label, preset, sets, set(only) if only is not None else None, var, own, common,
                                len(presets) > 1))
    labels = {}
    for label, preset, sets, *_ in out:
        if label in labels:
            raise SpecError(f"two configurations are labelled '{label}': give the variants distinct labels")
        labels[label] = (preset, sets)
    return out


def lines(expanded):
    """The curves of a variant family over its last axis: [{series, x,
    points: [(value, configuration label)]}], one series per value of its
    other axes (and preset), in expansion order, from expand(); for the
    collect step's line plot."""
    out = {}
    for label, preset, _, _, var, own, common, several in expanded:
        axes = var.get("axes", {})
        if not axes:
            continue
        x = list(axes)[-1]
        rest = {k: value_str(v) for k, v in own.items() if k != x}
        name = (subst(var["label"], dict(rest, **{x: "*"}), "[[variant]]") if "label" in var
                else " ".join(f"{k}={v}" for k, v in rest.items()) or x)
        name = " ".join(([os.path.basename(preset).removesuffix(".cfg")] if several else []) + [name] +
                        [f"{k}={value_str(v)}" for k, v in common.items()])
        out.setdefault(name, {"series": name, "x": x, "points": []})["points"].append((value_str(own[x]), label))
    return [s for s in out.values() if len(s["points"]) > 1]


def cell_key(name, label, rep, content):
    """A directory name: readable, and unique through a hash of what the run is."""
    digest = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:10]
    slug = re.sub(r"[^A-Za-z0-9_.=+-]+", "_", f"{name}.{label}").strip("_")[:100]
    return f"{slug}.r{rep}.{digest}"


def load(path, build, overrides=(), only=None):
    """The spec at path expanded: (settings, cells).  settings holds what the
    collect step needs; each cell is a dict with its key and command."""
    try:
        with open(path, "rb") as f:
            spec = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SpecError(f"{path}: {e}")
    unknown = set(spec) - KNOWN
    if unknown:
        raise SpecError(f"{path}: unknown key {', '.join(sorted(unknown))} (known: {', '.join(sorted(KNOWN))})")
    vars_ = {"build": build, "spec": os.path.dirname(os.path.abspath(path))}
    vars_.update({k: value_str(v) for k, v in spec.get("vars", {}).items()})
    for kv in overrides:
        k, eq, v = kv.partition("=")
        if not eq:
            raise SpecError(f"--var {kv}: expected NAME=VALUE")
        vars_[k] = v
    mode = spec.get("mode", "timing")
    if mode not in ("timing", "functional"):
        raise SpecError(f"{path}: mode must be timing or functional")
    reps = int(spec.get("repetitions", 1))
    env = {k: subst(value_str(v), vars_, "[env]") for k, v in spec.get("env", {}).items()}
    progs = programs(spec, vars_)
    if only:
        missing = set(only) - {n for n, *_ in progs}
        if missing:
            raise SpecError(f"--only: no program named {', '.join(sorted(missing))}")
        progs = [p for p in progs if p[0] in only]
    expanded = expand(spec, vars_) if mode == "timing" else []
    confs = [c[:4] for c in expanded] or [("functional", None, {}, None)]
    labels = {c[0] for c in confs}
    for name, _, _, theirs, _ in progs:
        if theirs and set(theirs) - labels:
            raise SpecError(f"{path}: program {name}: no configuration {', '.join(sorted(set(theirs) - labels))}")
    cells = []
    for name, exe, args, theirs, own_env in progs:
        run_env = dict(env, **own_env)
        for label, preset, sets, some in confs:
            if (some is not None and name not in some) or (theirs and label not in theirs):
                continue
            for rep in range(reps):
                content = {"program": exe, "args": args, "mode": mode, "preset": preset, "set": sets,
                           "env": run_env, "repetition": rep}
                cells.append({"key": cell_key(name, label, rep, content), "program": name, "config": label,
                              "repetition": rep, "path": exe, "args": args, "mode": mode, "preset": preset,
                              "set": sets, "env": run_env})
    settings = {
        "name": spec.get("name", os.path.basename(path).removesuffix(".toml")),
        "spec": os.path.abspath(path),
        "timeout": float(spec.get("timeout", 1800)),
        "expect": spec.get("expect", ""),
        "stats": list(spec.get("stats", DEFAULT_STATS)),
        "speedup": spec.get("speedup", "timing.gpu_ipc"),
        "baseline": spec.get("baseline", confs[0][0]),
        "configs": [c[0] for c in confs],
        "programs": [p[0] for p in progs],
    }
    if settings["baseline"] not in settings["configs"]:
        raise SpecError(f"{path}: baseline '{settings['baseline']}' is not a configuration "
                        f"(they are: {', '.join(settings['configs'])})")
    settings["lines"] = lines(expanded)
    settings["best"] = best_columns(path, spec.get("best", []), settings["configs"])
    settings["ratio"] = ratio_columns(path, spec.get("ratio", []), settings)
    return settings, cells


def ratio_columns(path, entries, settings):
    """The [[ratio]] columns, checked: [{label, of, over}]."""
    taken = set(settings["configs"]) | {b["label"] for b in settings["best"]}
    out = []
    for r in entries:
        if set(r) != {"label", "of", "over"}:
            raise SpecError(f"{path}: a [[ratio]] has a label, `of` and `over` (configurations)")
        missing = [k for k in (r["of"], r["over"]) if k not in settings["configs"]]
        if missing:
            raise SpecError(f"{path}: ratio '{r['label']}': no configuration {', '.join(missing)}")
        if r["label"] in taken:
            raise SpecError(f"{path}: ratio '{r['label']}' names a column twice")
        taken.add(r["label"])
        out.append({"label": r["label"], "of": r["of"], "over": r["over"]})
    return out


def best_columns(path, entries, configs):
    """The [[best]] columns, checked: [{label, of, like}]."""
    out = []
    for b in entries:
        unknown = set(b) - {"label", "of", "like"}
        if unknown or "label" not in b or not b.get("of"):
            raise SpecError(f"{path}: a [[best]] has a label and a list `of` configurations (and maybe `like`)")
        missing = [k for k in b["of"] if k not in configs]
        if missing:
            raise SpecError(f"{path}: best '{b['label']}': no configuration {', '.join(missing)}")
        if b["label"] in configs or any(o["label"] == b["label"] for o in out):
            raise SpecError(f"{path}: best '{b['label']}' names a column twice")
        like = b.get("like")
        if like and not any(o["label"] == like and len(o["of"]) == len(b["of"]) for o in out):
            raise SpecError(f"{path}: best '{b['label']}': `like` must name an earlier best column with as many "
                            f"configurations ({len(b['of'])})")
        out.append({"label": b["label"], "of": list(b["of"]), "like": like})
    return out
