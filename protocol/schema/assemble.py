#!/usr/bin/env python3
"""Assembles the protocol's JSON Schemas from the templates here and each game's part.

protocol/schema/*.json name no game. Where a schema needs every game (the list of ids, the roles,
each game's options, the branch of state.json and archive.json that checks a game's view, actions,
outcomes and result), the template holds a placeholder, and this script fills it in from the
games' folders, protocol/games/<id>/schema/:

  game.json      the game's part: its title, its seats' roles, its own room options
  view.json, action.json, outcome.json, result.json    copied byte for byte (they keep their $id)

A placeholder is {"$assemble": NAME} as an element of a list (replaced by the elements NAME
gives, in the order of the games) or a key "$assemble": NAME inside an object (replaced by the
keys NAME gives, at that place). Every file is written to OUT with the layout the schemas' $ids
give (common.json, state.json, ..., <id>/view.json), so the tests load OUT as they loaded the
source folder before the games had folders of their own.

Usage: assemble.py SOURCE_ROOT OUT STAMP [GAME ...]
The games are the registry's list, given by the build; with none given they are the folders of
protocol/games/ that have a schema/ folder. Either way a registered game without every part, or
a game folder with a schema/ folder that is not registered, is an error (exit status 1).
"""
import json
import os
import shutil
import sys

PARTS = ("view", "action", "outcome", "result")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def fail(msg):
    sys.stderr.write("assemble.py: %s\n" % msg)
    sys.exit(1)


def game_parts(source, games):
    """Reads every game's game.json, checking that each has all its parts."""
    folder = os.path.join(source, "protocol", "games")
    present = sorted(g for g in os.listdir(folder) if os.path.isdir(os.path.join(folder, g, "schema")))
    for g in present:
        if g not in games:
            fail("protocol/games/%s/schema/ exists but %s is not a registered game" % (g, g))
    parts = {}
    for g in games:
        for p in PARTS + ("game",):
            if not os.path.isfile(os.path.join(folder, g, "schema", p + ".json")):
                fail("game %s has no schema part protocol/games/%s/schema/%s.json" % (g, g, p))
        parts[g] = load(os.path.join(folder, g, "schema", "game.json"))
        for key in ("title", "roles", "options_description", "options"):
            if key not in parts[g]:
                fail("protocol/games/%s/schema/game.json has no %s" % (g, key))
    return parts


def is_game(g):
    return {"type": "object", "required": ["game"], "properties": {"game": {"const": g}}}


def either_null(ref):
    return {"anyOf": [{"type": "null"}, {"$ref": ref}]}


def state_branch(g):
    step = {"type": "object",
            "properties": {"action": {"$ref": g + "/action.json"}, "outcome": {"$ref": g + "/outcome.json"}}}
    return {"if": is_game(g), "then": {"type": "object", "properties": {
        "view": {"$ref": g + "/view.json"},
        "legal": {"type": "array", "items": {"$ref": g + "/action.json"}},
        "last": {"anyOf": [{"type": "null"}, step]},
        "result": either_null(g + "/result.json")}}}


def archive_branch(g):
    step = {"type": "object",
            "properties": {"action": {"$ref": g + "/action.json"}, "outcome": {"$ref": g + "/outcome.json"}}}
    return {"if": is_game(g), "then": {"type": "object", "properties": {
        "actions": {"type": "array", "items": step},
        "result": either_null(g + "/result.json")}}}


def generators(games, parts, every_option):
    """NAME -> a function giving a list (for list placeholders) or a dict (for key placeholders)."""
    def roles():
        out = []
        for g in games:
            out += [r for r in parts[g]["roles"] if r not in out]
        return out

    def option_properties():
        out = {}
        for g in games:
            for k, v in parts[g]["options"].items():
                if k in every_option or (k in out and out[k] != v):
                    fail("game %s: option %s differs from another game's or from every game's" % (g, k))
                out[k] = v
        return out

    def option_defs():
        out = {}
        for g in games:
            props = dict(parts[g]["options"])
            props.update(every_option)
            out["options_" + g] = {"description": parts[g]["options_description"], "type": "object",
                                   "additionalProperties": False, "properties": props}
        return out

    def full(g):
        required = list(parts[g]["options"]) + list(every_option)
        return {"if": is_game(g), "then": {"properties": {"options": {"allOf": [
            {"$ref": "#/$defs/options_" + g}, {"required": required}]}}}}

    return {
        "game_ids": lambda: list(games),
        "roles": roles,
        "game_option_properties": option_properties,
        "game_option_defs": option_defs,
        "game_options": lambda: [{"if": is_game(g), "then": {"properties": {"options": {
            "$ref": "#/$defs/options_" + g}}}} for g in games],
        "game_options_full": lambda: [full(g) for g in games],
        "state_branches": lambda: [state_branch(g) for g in games],
        "archive_branches": lambda: [archive_branch(g) for g in games],
        "game_files": lambda: ["%s/%s.json" % (g, p) for g in games for p in PARTS],
        "game_index": lambda: {g: {p: "%s/%s.json" % (g, p) for p in PARTS} for g in games},
    }


def fill(node, gen, used):
    if isinstance(node, list):
        out = []
        for x in node:
            if isinstance(x, dict) and set(x) == {"$assemble"}:
                used.add(x["$assemble"])
                out += gen[x["$assemble"]]()
            else:
                out.append(fill(x, gen, used))
        return out
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "$assemble":
                used.add(v)
                out.update(gen[v]())
            else:
                out[k] = fill(v, gen, used)
        return out
    return node


def write(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def main(argv):
    if len(argv) < 4:
        fail("usage: assemble.py SOURCE_ROOT OUT STAMP [GAME ...]")
    source, out, stamp, games = argv[1], argv[2], argv[3], argv[4:]
    if not games:
        folder = os.path.join(source, "protocol", "games")
        games = sorted(g for g in os.listdir(folder) if os.path.isdir(os.path.join(folder, g, "schema")))
    if len(set(games)) != len(games):
        fail("a game is registered twice: %s" % " ".join(games))
    parts = game_parts(source, games)
    templates = os.path.join(source, "protocol", "schema")
    every_option = {k: v for k, v in load(os.path.join(templates, "common.json"))["$defs"]["options"]
                    ["properties"].items() if k != "$assemble"}
    gen = generators(games, parts, every_option)
    used = set()
    shutil.rmtree(out, ignore_errors=True)  # nothing stale: a game dropped from the list leaves no file
    for name in sorted(os.listdir(templates)):
        if name.endswith(".json"):
            write(os.path.join(out, name), fill(load(os.path.join(templates, name)), gen, used))
    if used != set(gen):
        fail("placeholders never used in the templates: %s" % " ".join(sorted(set(gen) - used)))
    for g in games:
        for p in PARTS:
            os.makedirs(os.path.join(out, g), exist_ok=True)
            shutil.copyfile(os.path.join(source, "protocol", "games", g, "schema", p + ".json"),
                            os.path.join(out, g, p + ".json"))
    with open(stamp, "w", encoding="utf-8") as f:
        f.write(" ".join(games) + "\n")


if __name__ == "__main__":
    main(sys.argv)
