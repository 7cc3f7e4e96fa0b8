"""The package answers as the `gamegraph` command does, on every fixture of the repository."""

from __future__ import annotations

import pytest

import gamegraph as gg
from conftest import FIXTURES

GRAPHS = sorted(
    p
    for d in ("retro", "kernel", "grundy", "graph")
    for p in (FIXTURES / d).glob("*.txt")
)
KERNEL_GRAPHS = sorted((FIXTURES / "kernel").glob("*.txt"))
SEQUENCES = sorted((FIXTURES / "octal").glob("*.txt"))
BOARDS = sorted((FIXTURES / "tab").glob("*.inp"))
CODE = {gg.WIN: "win", gg.LOSS: "loss", gg.DRAW: "draw"}


def json_value(x):
    """A Grundy value as `grundy --json` writes it: a number, or {"infinite": [...]}."""
    return x if isinstance(x, int) else {"infinite": sorted(x.k)}


def name(p):
    return f"{p.parent.name}/{p.name}"


def test_the_fixtures_are_there():
    assert GRAPHS and KERNEL_GRAPHS and SEQUENCES and BOARDS


@pytest.mark.parametrize("path", GRAPHS, ids=name)
def test_retro_and_grundy_equal_the_command(cli, path):
    g = gg.read_graph(path)
    s = gg.retro(g, start=1 if g.start is None else None)
    out = cli("retro", "--all", "--json", "--start", "1", str(path))
    assert [v["outcome"] for v in out["all"]] == [CODE[o] for o in s.outcome.tolist()]
    assert [-1 if v["depth"] is None else v["depth"] for v in out["all"]] == s.depth.tolist()
    assert [v["move"] or 0 for v in out["all"]] == s.move.tolist()
    assert out["counts"] == s.counts()
    values = cli("grundy", "--all", "--json", str(path))
    assert [v["value"] for v in values] == [json_value(x) for x in gg.grundy(g)]


@pytest.mark.parametrize("path", KERNEL_GRAPHS, ids=name)
def test_kernels_equal_the_command(cli, path):
    g = gg.read_graph(path)
    assert cli("kernel", "--json", str(path))["kernel"] == gg.kernel(g)
    assert cli("kernel", "--count", "--json", str(path))["count"] == gg.count_kernels(g)
    listed = cli("kernel", "--all", "--limit", "50", "--json", str(path))
    assert listed["kernels"] == list(gg.kernels(g))[:50]
    for mode, solve in (("alpha", gg.alpha), ("beta", gg.beta)):
        out = cli("kernel", f"--{mode}", "--json", str(path))
        assert (out[mode], out["set"]) == solve(g)


def read_sequence(path):
    game, upto = None, None
    for line in path.read_text().splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] in ("octal", "subtraction"):
            game = words
        elif words[0] == "upto":
            upto = int(words[1])
    return game, upto


@pytest.mark.parametrize("path", SEQUENCES, ids=name)
def test_sequences_equal_the_command(cli, path):
    (kind, rules, *rest), upto = read_sequence(path)
    misere = rest == ["misere"]
    # The default limit of 10^6 values is slow in a debug build of the command.
    args = [kind, rules, "--upto", str(upto), "--period", "--limit", "5000", "--json"]
    if kind == "octal":
        seq = gg.octal(rules, upto=upto, limit=5000)
    else:
        seq = gg.subtraction(rules, upto=upto, misere=misere, limit=5000)
        args += ["--misere"] if misere else []
    out = cli(*args)
    assert out["values"] == seq.values.tolist()
    assert out["game"] == seq.game and out["computed"] == seq.computed
    period = out["period"]
    assert (seq.preperiod, seq.period) == (
        (period["preperiod"], period["period"]) if period else (None, None)
    )


@pytest.mark.parametrize("path", BOARDS, ids=name)
def test_tab_equals_the_command(cli, path):
    tests = [line.split() for line in path.read_text().splitlines() if line and line[0] != "#"]
    cells = [tuple(map(int, t)) for t in tests[1:] if len(t) == 4]
    out = cli("tab", str(path), "--json")
    assert [c["d"] for c in out] == [gg.tab(*c) for c in cells]


@pytest.mark.parametrize(
    "heaps, limits, misere",
    [([3, 5, 6], None, False), ([5, 7, 9], [2, 3, 4], False), ([1, 1, 4], None, True)],
)
def test_nim_equals_the_command(cli, heaps, limits, misere):
    args = ["nim", *map(str, heaps)]
    if limits:
        args += ["--max", ",".join(map(str, limits))]
    if misere:
        args.append("--misere")
    out = cli(*args, "--json")
    outcome, move = gg.nim(heaps, max=limits, misere=misere)
    assert out["answer"] == outcome
    assert [(m["heap"], m["take"]) for m in out["moves"]] == (
        [(move.heap, move.take)] if move else []
    )


@pytest.mark.parametrize(
    "tokens, heaps, limits, misere",
    [([4], [5, 7, 9], [2, 3, 4], False), ([1], [3], None, False), ([4], [1], None, True)],
)
def test_play_sum_equals_the_command(cli, tokens, heaps, limits, misere):
    path = FIXTURES / "grundy" / "seed.txt"
    args = ["grundy", str(path), "--tokens", ",".join(map(str, tokens))]
    args += ["--heaps", ",".join(map(str, heaps))]
    if limits:
        args += ["--max", ",".join(map(str, limits))]
    if misere:
        args.append("--misere")
    out = cli(*args, "--json")
    outcome, move = gg.play_sum(gg.read_graph(path), tokens, heaps, limits, misere=misere)
    assert out["answer"] == outcome
    m = out["move"]
    if isinstance(move, gg.TokenMove):
        assert m == {"token": move.token, "from": move.source, "to": move.target}
    else:
        assert m == {"heap": move.heap, "take": move.take}


BAD_FILES = {
    "letter.txt": "3 2\n1\n1 2\n2 x\n",
    "range.txt": "2 1\n1\n1 3\n",
    "short.txt": "4 3\n1\n1 2\n",
    "empty.txt": "",
    "trailing.txt": "2 1\n1\n1 2\n3 4 5\n",
}


@pytest.mark.parametrize("file", sorted(BAD_FILES))
def test_bad_files_raise_the_command_message(cli, tmp_path, file):
    path = tmp_path / file
    path.write_text(BAD_FILES[file])
    out = cli("retro", str(path), expect_json=False)
    assert out.returncode == 2
    with pytest.raises(ValueError) as e:
        gg.read_graph(path)
    assert out.stderr == f"error: {e.value}\n"


def test_bad_binary_raises_the_command_message(cli, tmp_path):
    good = tmp_path / "g.bin"
    cli("convert", str(FIXTURES / "retro" / "seed.txt"), "--to", "binary", "-o", str(good),
        expect_json=False)
    assert gg.read_graph(good) == gg.read_graph(FIXTURES / "retro" / "seed.txt")
    bad = tmp_path / "bad.bin"
    data = bytearray(good.read_bytes())
    data[-1] ^= 0xFF
    bad.write_bytes(bytes(data))
    out = cli("retro", str(bad), expect_json=False)
    assert out.returncode == 2
    with pytest.raises(ValueError) as e:
        gg.read_graph(bad)
    assert out.stderr == f"error: {e.value}\n"


#: A small instance of every registered game, in the words `gamegraph game` takes.
REGISTERED = [
    "tic-tac-toe",
    "connect-four --cols 4 --rows 4",
    "kayles 4,7",
    "dawsons-kayles 10",
    "octal 0.137 9",
    "quixo 3",
    "chase 8",
    "tab 9 4 1,1",
]


def test_every_registered_game_has_an_instance():
    assert sorted({w.split()[0] for w in REGISTERED}) == sorted(g["name"] for g in gg.games.registry())


@pytest.mark.parametrize("words", REGISTERED)
def test_registered_games_answer_as_the_command_plays_them(cli, words):
    """Along a line of best play, the value and the moves of every position are those of
    `gamegraph play --json` (the play session over the values the command solves)."""
    solved = gg.games.named(words)
    assert solved.name == words
    played = []
    for _ in range(12):
        args = ["play", "--json"]
        for m in played:
            args += ["--move", m]
        view = cli(*args, "--game", *words.split())
        p = view["position"]
        assert (str(solved.outcome(p)), solved.remoteness(p)) == (view["outcome"], view["remoteness"])
        # A move listed twice (two slides of Quixo to one position) is offered once.
        want = {(m["position"], m["outcome"], m["remoteness"]) for m in view["moves"]}
        got = {(q, str(o), r) for q, o, r in solved.moves(p)}
        assert got == want, p
        # The same board and the same names of the moves.
        board, b = solved.board(p), view["board"]
        if b is None:
            assert board is None
        elif b["kind"] == "grid":
            assert ("".join(board.cells), board.row_labels, board.col_labels) == (
                b["cells"], b["row_labels"], b["col_labels"])
        else:
            assert board.pins == b["rows"]
        names = {m["position"]: m["name"] for m in view["moves"]}
        assert {q: solved.move_name(p, q) for q, _, _ in solved.moves(p)} == names
        if view["over"]:
            break
        played.append(view["best"])
