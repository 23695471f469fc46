"""``graphmem daemon``: a real daemon process in a temporary workspace, real Kùzu and
SQLite; every output compared byte for byte with the same command run in-process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, WriteFiles, stray_daemons

from graphmem import config
from graphmem.surfaces.daemon import client as resident_client
from graphmem.surfaces.daemon.protocol import (
    LOG_NAME,
    MEMORY_DIR,
    SOCKET_NAME,
    lock_path,
    socket_path,
)
from graphmem.surfaces.daemon.server import ping

HANG = 120.0  # a guard against a hung daemon, not a speed target
FILES: dict[str, str | bytes] = {
    "bank/entities/Peter.md": "# Peter\nAliases: Pete\n",
    "memory/2025-11-01.md": "Coffee with @Peter at the tram stop.\n\n## Retain\n"
    "- W @Peter: Works at Acme\n- W @Peter: Lives in Lisbon\n- O(c=0.6) @Peter: Likes trams\n",
    "memory/2025-11-02.md": "## Retain\n- O(c=1.7) @Andy: Loves rain\n- B @Andy: I fixed the relay.\n",
}
ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
    "GRAPHMEM_WORKSPACE": "",
    "GRAPHMEM_RESIDENT": "manual",  # ask a running daemon, start none (the tests below do)
}


def _env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    return base | ENV | {"PYTHONPATH": str(ROOT), "COLUMNS": "100"} | extra


def graphmem(*args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    """One ``graphmem`` process (a daemon answers when one runs)."""
    return subprocess.run(
        [sys.executable, "-m", "graphmem", *args],
        capture_output=True,
        env=_env(**env),
        cwd=ROOT,
        timeout=HANG,
        check=False,
    )


def standalone(*args: str) -> subprocess.CompletedProcess[bytes]:
    """The same command, never delegated."""
    return graphmem(*args, GRAPHMEM_RESIDENT="off")


def served(root: Path) -> int:
    """How many commands the workspace's daemon has run."""
    answer = ping(socket_path(str(root)))
    assert answer is not None, "no daemon answers"
    return int(answer["commands"])


def start(root: Path, *args: str) -> subprocess.Popen[bytes]:
    """A daemon for `root`, once it answers with its index and models loaded."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "graphmem", "daemon", "-w", str(root), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=_env(),
        cwd=ROOT,
    )
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        answer = ping(socket_path(str(root)))
        if answer is not None and answer["warm"]:
            return proc
        if proc.poll() is not None:
            assert proc.stderr is not None
            raise AssertionError(f"daemon exited: {proc.stderr.read().decode()}")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the daemon never answered")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(HANG)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()


@pytest.fixture
def ws(make_workspace: WriteFiles) -> Path:
    root = make_workspace(FILES)
    done = standalone("index", "-w", str(root), "-q")
    assert done.returncode == 0, done.stderr
    return root


@pytest.fixture
def daemon(ws: Path) -> Iterator[subprocess.Popen[bytes]]:
    proc = start(ws, "--idle", "0")
    yield proc
    stop(proc)


def same(*args: str) -> subprocess.CompletedProcess[bytes]:
    """Run `args` through the daemon and in-process; both must print the same bytes."""
    through = graphmem(*args)
    alone = standalone(*args)
    assert (through.stdout, through.stderr, through.returncode) == (
        alone.stdout,
        alone.stderr,
        alone.returncode,
    ), args
    return through


def test_output_is_byte_identical_to_the_standalone_cli(ws: Path, daemon: object) -> None:
    w = ("-w", str(ws))
    before = served(ws)
    lines = [
        ("recall", "where does Peter live", "--now", "2025-12-01", "--json"),
        ("recall", "where does Peter live", "--now", "2025-12-01"),
        (*w, "recall", "trams", "--kind", "opinion", "--now", "2025-12-01"),
        ("recall", "rain", "--since", "2025-11-02", "--now", "2025-12-01", "--json"),
        ("about", "Pete", "--json"),
        ("about", "Pete"),
        ("timeline", "Peter"),
        ("status", "--json"),
        ("about", "Nobody"),  # exit 1, with close matches on stderr
        ("recall", "x", "--k", "0"),  # a usage error: exit 2, usage on stderr
        ("recall", "x", "--bogus", "--json"),  # a usage error as JSON
        ("recall", "  ", "--json"),  # a library error as JSON
    ]
    codes = set()
    for line in lines:
        args = line if line[0] == "-w" else (*line, *w)
        codes.add(same(*args).returncode)
    assert codes == {0, 1, 2}
    assert served(ws) == before + len(lines)  # every one of them ran in the daemon


@pytest.mark.slow
def test_with_embeddings_the_scores_are_the_one_shot_ones(make_workspace: WriteFiles) -> None:
    """sqlite-vec in the daemon too: numpy's float32 sums would change the last digits."""
    root = make_workspace(FILES)
    model = {"GRAPHMEM_EMBED_MODEL": "minilm-int8"}
    assert (
        graphmem("index", "-q", "-w", str(root), **model, GRAPHMEM_RESIDENT="off").returncode == 0
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "graphmem", "daemon", "-w", str(root), "--idle", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_env(**model),
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + HANG
        while not (ping(socket_path(str(root))) or {}).get("warm"):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        for question in ("where does Peter live", "rain", "the relay", "trams", "Acme"):
            args = ("recall", question, "--json", "--now", "2025-12-01", "-w", str(root))
            through, alone = (
                graphmem(*args, **model),
                graphmem(*args, **model, GRAPHMEM_RESIDENT="off"),
            )
            assert through.stdout == alone.stdout and b"vector#" in through.stdout
        assert served(root) == 5
    finally:
        stop(proc)


def test_it_answers_from_each_new_generation(ws: Path, daemon: object) -> None:
    w = ("-w", str(ws))
    same("recall", "zeppelin", "--json", "--now", "2025-12-01", *w)
    log = ws / "memory" / "2025-11-02.md"
    log.write_text(log.read_text() + "\nWe watched a zeppelin over the harbour.\n")
    done = graphmem("index", *w)  # the daemon runs the index too
    assert done.returncode == 0 and b"incremental" in done.stdout, done.stderr
    found = same("recall", "zeppelin", "--json", "--now", "2025-12-01", *w)
    assert b"zeppelin over the harbour" in found.stdout
    log.write_text(log.read_text() + "\nThe zeppelin landed in Porto.\n")
    assert standalone("index", "-q", *w).returncode == 0  # another process publishes
    found = same("recall", "zeppelin porto", "--json", "--now", "2025-12-01", *w)
    assert b"landed in Porto" in found.stdout


def test_clients_at_once_each_get_the_right_answer(ws: Path, daemon: object) -> None:
    """One command at a time runs in the daemon; the others find it busy and run
    in-process. Either way each prints what the standalone CLI prints."""
    args = ("recall", "where does Peter live", "--json", "--now", "2025-12-01", "-w", str(ws))
    expected = standalone(*args)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "graphmem", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(),
            cwd=ROOT,
        )
        for _ in range(4)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=HANG)
        assert (out, err, proc.returncode) == (
            expected.stdout,
            expected.stderr,
            expected.returncode,
        )
    assert served(ws) >= 1


def test_a_client_with_other_settings_runs_in_process(ws: Path, daemon: object) -> None:
    before = served(ws)
    args = ("recall", "Lisbon", "--json", "--now", "2025-12-01", "-w", str(ws))
    other = graphmem(*args, GRAPHMEM_BUFFER_POOL_MB="32")
    assert other.returncode == 0 and b"Lisbon" in other.stdout
    assert graphmem("--help").returncode == 0
    assert served(ws) == before  # declined, answered in-process


def test_it_runs_only_the_commands_it_is_for(ws: Path, daemon: object) -> None:
    """A hand-made request for `daemon` or `watch` (which would never return) is declined."""
    import json

    from graphmem.surfaces.daemon.protocol import JSON, receive, send_json

    for argv in (["daemon", "-w", str(ws)], ["watch", "-w", str(ws)], ["--help"]):
        sock = resident_client.connect(socket_path(str(ws)))
        assert sock is not None
        with sock:
            request = resident_client.request(argv, str(ws))
            assert request is not None
            send_json(sock, request)
            kind, payload = receive(sock)
            assert kind == JSON and "decline" in json.loads(payload), argv
    assert served(ws) == 0


def test_the_socket_is_private_and_removed_on_stop(ws: Path) -> None:
    proc = start(ws, "--idle", "0")
    path = Path(socket_path(str(ws)))
    try:
        assert path.stat().st_mode & 0o777 == 0o600
        # A second daemon for the same workspace refuses to start.
        second = graphmem("daemon", "-w", str(ws))
        assert second.returncode == 1 and b"already serves" in second.stderr
        stopped = graphmem("daemon", "--stop", "-w", str(ws))
        assert stopped.returncode == 0 and b"stopped pid" in stopped.stdout
        proc.wait(HANG)
    finally:
        stop(proc)
    assert not path.exists()
    assert b"no graphmem daemon" in graphmem("daemon", "--status", "-w", str(ws)).stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to try as another user")
def test_another_user_cannot_connect(ws: Path, daemon: object) -> None:
    path = socket_path(str(ws))
    pid = os.fork()
    if pid == 0:  # the child becomes nobody and tries
        code = 0
        try:
            os.setgid(65534)
            os.setuid(65534)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.connect(path)
        except PermissionError:
            code = 7
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 7


def test_a_stale_socket_is_ignored_then_replaced(ws: Path) -> None:
    path = socket_path(str(ws))
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(path)  # a daemon killed with SIGKILL leaves this behind
    dead.close()
    args = ("recall", "Lisbon", "--json", "--now", "2025-12-01", "-w", str(ws))
    assert graphmem(*args).stdout == standalone(*args).stdout != b""
    proc = start(ws, "--idle", "0")
    try:
        same(*args)
        assert served(ws) == 1
    finally:
        stop(proc)


def test_no_daemon_for_a_missing_workspace(tmp_path: Path) -> None:
    done = graphmem("daemon", "-w", str(tmp_path / "nowhere"))
    assert done.returncode == 1 and b"does not exist" in done.stderr
    assert not (tmp_path / "nowhere").exists()


def test_it_stops_when_idle(ws: Path) -> None:
    proc = start(ws, "--idle", "1")
    assert proc.wait(HANG) == 0
    assert proc.stderr is not None and b"stopped after 0 command" in proc.stderr.read()
    stop(proc)
    assert not Path(socket_path(str(ws))).exists()


def test_a_deep_workspace_is_reached_past_the_socket_path_limit(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    deep = tmp_path.joinpath(*["a-rather-long-folder-name"] * 5) / "ws"
    deep.parent.mkdir(parents=True)
    os.rename(make_workspace(FILES), deep)
    assert len(socket_path(str(deep))) > 108
    assert standalone("index", "-q", "-w", str(deep)).returncode == 0
    proc = start(deep, "--idle", "0")
    try:
        same("recall", "Lisbon", "--json", "--now", "2025-12-01", "-w", str(deep))
        assert served(deep) == 1
    finally:
        stop(proc)


def test_background_start_and_status(ws: Path) -> None:
    started = graphmem("daemon", "--background", "--idle", "60", "-w", str(ws))
    assert started.returncode == 0 and b"serves" in started.stdout, started.stderr
    try:
        status = graphmem("daemon", "--status", "--json", "-w", str(ws))
        assert b'"running": true' in status.stdout
        same("about", "Peter", "-w", str(ws))
    finally:
        assert graphmem("daemon", "--stop", "-w", str(ws)).returncode == 0


# ----------------------------------------------------------------------------- the client alone


def test_the_client_reads_the_command_and_workspace_as_the_cli_does() -> None:
    target = resident_client.target
    assert target(["recall", "q"]) == ("recall", None)
    assert target(["-w", "/a", "recall", "q"]) == ("recall", "/a")
    assert target(["--workspace=/a", "about", "x", "-w", "/b"]) == ("about", "/b")
    assert target(["recall", "q", "--workspace", "/b"]) == ("recall", "/b")
    assert target(["recall", "--", "-w", "/b"]) == ("recall", None)
    for line in (["--version"], ["recall", "--help"], ["retain", "x"], ["-w"], []):
        assert target(line) is None, line


def test_the_client_constants_match_the_config() -> None:
    assert config.MEMORY_DIR == MEMORY_DIR
    assert str(config.DEFAULT_WORKSPACE) == resident_client.DEFAULT_WORKSPACE
    assert SOCKET_NAME.endswith(".sock")
    ws = resident_client.resolve_workspace("~/x/../y", {"HOME": "/h"})
    assert ws == os.path.realpath(os.path.expanduser("~/y"))
    assert resident_client.resolve_workspace(None, {"GRAPHMEM_WORKSPACE": "/w"}) == "/w"


def test_the_terminal_size_is_shutils(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    for env in ({"COLUMNS": "77", "LINES": "5"}, {"COLUMNS": "x"}, {}):
        monkeypatch.delenv("COLUMNS", raising=False)
        monkeypatch.delenv("LINES", raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        assert resident_client.terminal_size() == tuple(shutil.get_terminal_size((100, 24)))


def test_no_daemon_means_in_process(ws: Path) -> None:
    args = ("recall", "Lisbon", "--json", "--now", "2025-12-01", "-w", str(ws))
    assert graphmem(*args).stdout == standalone(*args).stdout != b""
    assert not Path(socket_path(str(ws))).exists()


def test_a_request_naming_another_workspace_is_refused(
    ws: Path, daemon: object, tmp_path: Path
) -> None:
    """A hand-made request whose ``workspace`` field names the daemon's own folder while its
    argv says ``-w OTHER`` (before or after the command) is declined; nothing runs there.
    Its environment is the daemon's, so nothing else would decline it."""
    import json

    from graphmem.surfaces.daemon.protocol import JSON, receive, relevant_env, send_json

    other = tmp_path / "other"
    other.mkdir()
    (other / "memory").mkdir()
    (other / "memory" / "2025-11-03.md").write_text("## Retain\n- W @Zoe: Lives in Oslo\n")
    for argv in (
        ["-w", str(other), "index"],
        ["index", "--workspace", str(other)],
        ["recall", "Oslo", "-w", "other"],  # relative to the client's folder
    ):
        sock = resident_client.connect(socket_path(str(ws)))
        assert sock is not None
        with sock:
            request = resident_client.request(argv, str(ws))
            assert request is not None
            request["cwd"] = str(tmp_path)
            request["env"] = relevant_env(_env())  # the daemon's own
            send_json(sock, request)
            kind, payload = receive(sock)
            assert kind == JSON and json.loads(payload) == {"decline": "another workspace"}, argv
    assert served(ws) == 0
    assert not (other / ".memory").exists()  # nothing was indexed there


# ----------------------------------------------------------------------------- started by a client


def wait_warm(root: Path) -> dict[str, object]:
    """The ping of `root`'s daemon once it answers warm (a guard, not a speed target)."""
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        answer = ping(socket_path(str(root)))
        if answer is not None and answer["warm"]:
            return answer
        time.sleep(0.05)
    raise AssertionError("no daemon answered")


def wait_gone(pid: int) -> None:
    deadline = time.monotonic() + HANG
    while Path(f"/proc/{pid}").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z":
        assert time.monotonic() < deadline, f"pid {pid} still runs"
        time.sleep(0.05)


def stop_all(root: Path) -> None:
    for pid in stray_daemons(root):
        os.kill(pid, signal.SIGTERM)
        wait_gone(pid)


def test_a_cold_command_answers_then_starts_a_daemon_for_the_next(ws: Path) -> None:
    args = ("recall", "where does Peter live", "--json", "--now", "2025-12-01", "-w", str(ws))
    try:
        first = graphmem(*args, GRAPHMEM_RESIDENT="on")
        assert (first.stdout, first.returncode) == (standalone(*args).stdout, 0)
        assert b"Lisbon" in first.stdout
        assert len(stray_daemons(ws)) == 1  # started before the first client exited
        wait_warm(ws)
        for question in ("where does Peter live", "rain"):  # from the second call on: served
            line = ("recall", question, "--json", "--now", "2025-12-01", "-w", str(ws))
            through = graphmem(*line, GRAPHMEM_RESIDENT="on")
            assert through.stdout == standalone(*line).stdout != b""
        assert served(ws) == 2
        log = (ws / MEMORY_DIR / LOG_NAME).read_text()
        assert log.count(" serves ") == 1, log
    finally:
        stop_all(ws)
    assert not Path(socket_path(str(ws))).exists()


def test_cold_commands_at_once_start_one_daemon(ws: Path) -> None:
    """Five cold clients at once: each answers itself, exactly one daemon ever starts."""
    args = ("recall", "trams", "--json", "--now", "2025-12-01", "-w", str(ws))
    expected = standalone(*args).stdout
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "graphmem", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(GRAPHMEM_RESIDENT="on"),
            cwd=ROOT,
        )
        for _ in range(5)
    ]
    try:
        for proc in procs:
            out, _ = proc.communicate(timeout=HANG)
            assert (out, proc.returncode) == (expected, 0)
        wait_warm(ws)
        assert len(stray_daemons(ws)) == 1
        log = (ws / MEMORY_DIR / LOG_NAME).read_text()
        assert log.count(" serves ") == 1 and "already serves" not in log, log
    finally:
        stop_all(ws)


def test_a_daemon_does_not_start_while_another_holds_the_lock(ws: Path) -> None:
    """The lock, not the socket, decides: held by a daemon still starting (no socket yet),
    a second daemon refuses and a cold client starts none."""
    fd = resident_client.take_lock(str(ws))
    assert fd is not None
    try:
        assert resident_client.take_lock(str(ws)) is None  # flock: one holder at a time
        second = graphmem("daemon", "-w", str(ws), "--idle", "0")
        assert second.returncode == 1 and b"already serves" in second.stderr
        cold = graphmem("about", "Peter", "-w", str(ws), GRAPHMEM_RESIDENT="on")
        assert cold.returncode == 0 and b"Peter" in cold.stdout
        assert stray_daemons(ws) == []
    finally:
        os.close(fd)
    assert Path(lock_path(str(ws))).stat().st_mode & 0o777 == 0o600


def test_manual_and_off_start_no_daemon(ws: Path, make_workspace: WriteFiles) -> None:
    for value in ("manual", "off", "OFF", "0"):
        done = graphmem("status", "-w", str(ws), GRAPHMEM_RESIDENT=value)
        assert done.returncode == 0, done.stderr
        assert stray_daemons(ws) == [], value
    # `on`, but a workspace never indexed has nothing to keep warm
    bare = ws.parent / "bare"
    (bare / "memory").mkdir(parents=True)
    (bare / "memory" / "2025-11-03.md").write_text("## Retain\n- W @Zoe: Lives in Oslo\n")
    graphmem("recall", "Oslo", "-w", str(bare), GRAPHMEM_RESIDENT="on")
    assert stray_daemons(bare) == [] and not (bare / MEMORY_DIR).exists()


def test_a_started_daemon_stops_after_the_idle_setting(ws: Path) -> None:
    done = graphmem(
        "about", "Peter", "-w", str(ws), GRAPHMEM_RESIDENT="on", GRAPHMEM_RESIDENT_IDLE="1"
    )
    assert done.returncode == 0
    (pid,) = stray_daemons(ws)
    try:
        wait_gone(pid)  # nothing asks it anything: it stops by itself
    finally:
        stop_all(ws)
    assert not Path(socket_path(str(ws))).exists()
    assert "stopped after 0 command" in (ws / MEMORY_DIR / LOG_NAME).read_text()


def test_the_resident_settings_are_read_as_documented() -> None:
    mode, idle = resident_client.mode, resident_client.idle_seconds
    assert [mode({}), mode({"GRAPHMEM_RESIDENT": " On "}), mode({"GRAPHMEM_RESIDENT": "yes"})] == [
        "on",
        "on",
        "on",
    ]
    assert mode({"GRAPHMEM_RESIDENT": "Manual"}) == "manual"
    for value in ("off", "0", "no", "false", "none"):
        assert mode({"GRAPHMEM_RESIDENT": value}) == "off"
    assert idle({}) == idle({"GRAPHMEM_RESIDENT_IDLE": "soon"}) == resident_client.DEFAULT_IDLE
    assert idle({"GRAPHMEM_RESIDENT_IDLE": "-3"}) == resident_client.DEFAULT_IDLE
    assert idle({"GRAPHMEM_RESIDENT_IDLE": "30"}) == 30.0
    assert idle({"GRAPHMEM_RESIDENT_IDLE": "0"}) == 0.0  # never stops


BLOCKING_NER = """\
import os

# Importing this "spaCy pipeline" waits until the test writes to the gate beside it.
with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "gate")) as gate:
    gate.read()


def load(**overrides):
    raise OSError("not a pipeline")
"""


def test_it_answers_before_the_ner_pipeline_has_loaded(ws: Path, tmp_path: Path) -> None:
    """The NER pipeline (an installed package, here one whose import waits on a FIFO the
    test holds) loads after the daemon answers: recall is served while NER is still
    loading, and an `index` sent meanwhile waits for it rather than load it again."""
    pkgs = tmp_path / "pkgs"
    (pkgs / "blocking_ner").mkdir(parents=True)
    (pkgs / "blocking_ner" / "__init__.py").write_text(BLOCKING_NER)
    (pkgs / "blocking_ner-1.0.dist-info").mkdir()
    (pkgs / "blocking_ner-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: blocking_ner\nVersion: 1.0\n"
    )
    os.mkfifo(pkgs / "gate")
    env = {"GRAPHMEM_NER_MODEL": "blocking_ner", "PYTHONPATH": f"{ROOT}{os.pathsep}{pkgs}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "graphmem", "daemon", "-w", str(ws), "--idle", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_env(**env),
        cwd=ROOT,
    )
    try:
        assert wait_warm(ws)["ner"] is False
        args = ("recall", "where does Peter live", "--json", "--now", "2025-12-01", "-w", str(ws))
        through = graphmem(*args, **env)
        assert b"Lisbon" in through.stdout and served(ws) == 1
        assert ping(socket_path(str(ws)))["ner"] is False  # type: ignore[index]
        indexing = subprocess.Popen(
            [sys.executable, "-m", "graphmem", "index", "-w", str(ws)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(**env),
            cwd=ROOT,
        )
        deadline = time.monotonic() + HANG
        while True:  # open the gate once the daemon waits at it
            try:
                gate = os.open(pkgs / "gate", os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        os.write(gate, b"go")
        os.close(gate)
        _, err = indexing.communicate(timeout=HANG)
        assert indexing.returncode == 0, err
        assert b"NER off" in err and b"blocking_ner" in err
        answer = ping(socket_path(str(ws)))
        assert answer is not None and answer["ner"] is True and answer["commands"] == 2
    finally:
        stop(proc)
