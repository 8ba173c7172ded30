#!/usr/bin/env python3
"""Interactive sessions of the real `caracal` binary in a terminal, driven through tmux
(send-keys, capture-pane): line editing, multi-line input and prompts, Tab completion,
Ctrl-C (cancelling input and the wait for a result), history across sessions, and the
interactive-only words (help, quit) and Ctrl-D.

  tests/frontend/shell/interactive.py [--caracal build/caracal] [SCENARIO ...]

Every wait is bounded (a few seconds); exit status 0 when every scenario passes, 2 when
tmux is missing (ctest then reports the test as skipped).
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent


class Failure(Exception):
    pass


class Terminal:
    """One caracal in a detached tmux session of its own server."""

    def __init__(self, caracal, home, name, args=(), env=None, width=100, height=40, then_echo_status=False):
        self.socket = f"caracal-{os.getpid()}-{name}"
        self.home = home
        environment = {"HOME": str(home), "TERM": "xterm", "PAGER": "cat", "LC_ALL": "C.UTF-8"}
        environment.update(env or {})
        command = " ".join(map(quote, ["env", *[f"{k}={v}" for k, v in environment.items()], str(caracal), *args]))
        if then_echo_status:
            # Keep the pane open after caracal exits, showing its exit status.
            command = f"sh -c {quote('trap : INT; ' + command + '; echo EXIT=$?; sleep 30')}"
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), command)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10)

    def type(self, text):
        # tmux reads a trailing ';' as a command separator unless it is escaped.
        if text.endswith(";"):
            text = text[:-1] + "\\;"
        self.tmux("send-keys", "-t", "t", "-l", text)

    def keys(self, *names):
        self.tmux("send-keys", "-t", "t", *names)

    def line(self, text):
        self.type(text)
        self.keys("Enter")

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "t", "-S", "-200").stdout

    def wait_for(self, pattern, timeout=5.0, what=None):
        """Waits until the screen matches `pattern` (a regex); returns the screen."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if re.search(pattern, screen, re.M):
                return screen
            if time.monotonic() > deadline:
                raise Failure(f"timed out waiting for {what or pattern!r}; the screen:\n{screen}")
            time.sleep(0.05)

    def alive(self):
        return self.tmux("has-session", "-t", "t").returncode == 0

    def wait_exit(self, timeout=5.0):
        deadline = time.monotonic() + timeout
        while self.alive():
            if time.monotonic() > deadline:
                raise Failure(f"caracal did not exit; the screen:\n{self.screen()}")
            time.sleep(0.05)

    def close(self):
        self.tmux("kill-server")


def quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


PROMPT = r"caracal=> ?$"


def expect(condition, message, term):
    if not condition:
        raise Failure(f"{message}; the screen:\n{term.screen()}")


# ---- scenarios: each gets a fresh terminal and home directory ---------------------------


def prompts_and_multiline(t):
    """psql's prompts: = ready, - continuing, ' in a string, $ in a dollar quote, ( in
    parentheses, * in a comment; the statement runs at its ';'."""
    t.wait_for(PROMPT, what="the first prompt")
    t.line("select 1 as a,")
    t.wait_for(r"^caracal-> ?$")
    t.line("'multi")
    t.wait_for(r"^caracal'> ?$")
    t.line("line' as b, (2")
    t.wait_for(r"^caracal\(> ?$")
    t.line(") as c, $$x")
    t.wait_for(r"^caracal\$> ?$")
    t.line("$$ as d /* open")
    t.wait_for(r"^caracal\*> ?$")
    t.line("*/;")
    s = t.wait_for(r"\(1 row\)")
    expect(re.search(r" 1 \| multi\+\| 2 \| x\+", s), "the multi-line statement's result", t)
    t.wait_for(PROMPT)


def transaction_prompts(t):
    """%x in the prompt: '*' inside a transaction block, '!' inside a failed one."""
    t.wait_for(PROMPT, what="the first prompt")
    t.line("begin;")
    t.wait_for(r"^caracal=\*> ?$", what="the in-block prompt")
    t.line("select 1/0;")
    t.wait_for(r"^caracal=!> ?$", what="the failed-block prompt")
    t.line("rollback;")
    t.wait_for(PROMPT, what="the prompt after ROLLBACK")


def ctrl_c_cancels_input(t):
    """Ctrl-C abandons the statement being typed (not the session); the next one runs."""
    t.wait_for(PROMPT)
    t.line("select 'never run' as x,")
    t.wait_for(r"^caracal-> ?$")
    t.type("'half typed")
    t.keys("C-c")
    t.wait_for(PROMPT)
    t.line("select 'after ctrl-c' as y;")
    s = t.wait_for(r"\(1 row\)")
    expect("never run" not in s.split("after ctrl-c")[-1] and " after ctrl-c" in s, "only the new statement ran", t)
    expect("ERROR" not in s, "no error from the abandoned input", t)


def ctrl_c_during_a_paste(t):
    """Ctrl-C while the line editor is still drawing a long pasted line (between two reads
    of the terminal, not blocked in one) cancels it too; it was once lost there and the
    shell hung waiting for a newline. Then UTF-8 typed at the prompt arrives whole."""
    t.wait_for(PROMPT)
    t.line("select 'never run' as x,")
    t.wait_for(r"^caracal-> ?$")
    t.type("'" + "long pasted text " * 200)
    t.keys("C-c")
    t.wait_for(PROMPT, what="a new prompt after Ctrl-C")
    t.line("select 'café €' as y;")
    s = t.wait_for(r"\(1 row\)")
    expect(re.search(r"^caracal=> select 'café €' as y;\s*$", s, re.M), "the UTF-8 text echoed whole", t)
    result = s.split("as y;")[-1]
    expect(re.search(r"^ café €\s*$", result, re.M), "the UTF-8 value returned whole", t)
    expect("never run" not in result and "ERROR" not in result, "only the new statement ran", t)


def ctrl_c_stops_waiting(t):
    """Ctrl-C while a call waits for its epoch stops the wait; the transaction still
    commits and the database goes on."""
    t.wait_for(PROMPT)
    t.line("create table c (k int primary key, v int);")
    t.wait_for("CREATE TABLE")
    t.line("create procedure bump() language plpgsql as $$ begin insert into c values (1, 1); end $$;")
    t.wait_for("CREATE PROCEDURE")
    # An epoch that closes only after 60 s (or when the next statement drains it).
    t.line("set caracal.adaptive_epochs = off;")
    t.wait_for(r"^SET$")
    t.line("set caracal.epoch_interval_ms = 60000;")
    t.wait_for(r"^SET$")
    t.line("call bump();")
    time.sleep(0.5)
    expect("CALL" not in t.screen().split("call bump();")[-1], "the call is still waiting", t)
    t.keys("C-c")
    s = t.wait_for(r"stopped waiting for the result", what="the cancel message")
    t.wait_for(PROMPT)
    t.line("select count(*) from c;")
    s = t.wait_for(r"\(1 row\)")
    expect(re.search(r"^\s+1$", s.split("select count(*) from c;")[-1], re.M), "the call committed", t)


def line_editing(t):
    """emacs keys: Ctrl-A / Ctrl-E, arrows, Ctrl-U, Backspace."""
    t.wait_for(PROMPT)
    t.type("elect 2 as two;")
    t.keys("C-a")
    t.type("s")
    t.keys("C-e", "BSpace")
    t.type(";")
    t.keys("Enter")
    s = t.wait_for(r"\(1 row\)")
    expect(re.search(r"^\s+two\s*$", s, re.M), "the edited statement ran", t)
    t.type("select 'wrong'")
    t.keys("C-u")
    t.line("select 'right' as r;")
    s = t.wait_for(r"\(1 row\)\s+caracal=> ?$")
    expect(" right" in s and "wrong'" not in s.split("\n")[-8:][0], "Ctrl-U cleared the line", t)


def completion(t):
    """Tab completes meta-commands, keywords, tables, columns and settings."""
    t.wait_for(PROMPT)
    t.line("create table warehouse (w_id int primary key, w_name text, w_tax numeric(4,4));")
    t.wait_for("CREATE TABLE")
    # The new prompt first: keys typed before libedit redraws the line land before it.
    t.wait_for(PROMPT)
    # Keywords keep the case of what was typed (COMP_KEYWORD_CASE preserve-upper).
    t.type("sel")
    t.keys("Tab")
    t.wait_for(r"caracal=> select ?$", what="sel completed in lower case")
    t.keys("C-u")
    t.type("SEL")
    t.keys("Tab")
    t.wait_for(r"caracal=> SELECT ?$", what="SEL completed in upper case")
    t.type("w_n")
    t.keys("Tab")
    t.wait_for(r"SELECT w_name ?$", what="a column completed")
    t.type("fr")
    t.keys("Tab")
    t.wait_for(r"SELECT w_name from ?$", what="from completed")
    t.type("wa")
    t.keys("Tab")
    t.wait_for(r"SELECT w_name from warehouse ?$", what="a table completed")
    t.type("where w_")
    t.keys("Tab")
    s = t.wait_for(r"w_id\s+w_name\s+w_tax", what="the column candidates listed")
    t.keys("C-u")
    t.type("\\pset for")
    t.keys("Tab")
    t.wait_for(r"\\pset format ?$", what="a \\pset option")
    t.keys("C-u")
    t.type("set caracal.work")
    t.keys("Tab")
    t.wait_for(r"set caracal.workers ?$", what="a setting")
    t.keys("C-u")
    t.type("\\ti")
    t.keys("Tab")
    t.wait_for(r"\\timing ?$", what="a meta-command")
    t.keys("Enter")
    t.wait_for("Timing is on.")


def history(t, caracal, home):
    """Statements go to ~/.caracal_history (one entry per statement, multi-line ones
    whole) and come back with Up in the next session; HISTCONTROL=ignorespace skips
    lines typed with a leading space."""
    t.wait_for(PROMPT)
    t.line("\\set HISTCONTROL ignorespace")
    t.line("select 'first' as h1;")
    t.wait_for(r"\(1 row\)")
    t.line(" select 'secret' as h2;")
    t.wait_for(r"secret\s*\n\(1 row\)")
    t.line("\\q")
    t.wait_exit()
    text = (home / ".caracal_history").read_text()
    if "first" not in text or "secret" in text:
        raise Failure(f"history file content:\n{text}")
    t2 = Terminal(caracal, home, "history2")
    try:
        t2.wait_for(PROMPT)
        t2.keys("Up")
        t2.wait_for(r"caracal=> \\q$")
        t2.keys("Up")
        t2.wait_for(r"caracal=> select 'first' as h1;$", what="the statement from the last session")
        t2.keys("Enter")
        t2.wait_for(r"first\s*\n\(1 row\)")
    finally:
        t2.close()


def words_and_eof(t):
    """"help" prints help, "quit" in a statement is a hint, Ctrl-D quits with "\\q"."""
    t.wait_for(PROMPT)
    t.line("help")
    t.wait_for(r"\\\? for help with caracal commands")
    t.line("select 1 as")
    t.line("quit")
    t.wait_for(r"Use \\q to quit\.")
    t.keys("C-c")
    t.wait_for(PROMPT)
    t.keys("C-d")
    t.wait_exit()


def bad_input_goes_on(t):
    """Errors, unknown meta-commands and unterminated input leave the session usable."""
    t.wait_for(PROMPT)
    t.line("\\nosuch")
    t.wait_for(r"invalid command \\nosuch")
    t.wait_for(r"Try \\\? for help\.")
    t.line("select nosuch;")
    t.wait_for(r"LINE 1: select nosuch;")
    t.line("select 'still alive' as ok;")
    t.wait_for(r"still alive\s*\n\(1 row\)")


def copy_progress_and_cancel(t):
    """A long COPY shows rows and rows/s on the terminal; Ctrl-C cancels it and loads
    nothing."""
    csv = t.home / "big.csv"
    with open(csv, "w") as f:
        f.writelines(f"{i},value {i}\n" for i in range(2_500_000))
    t.wait_for(PROMPT)
    t.line("create table big (k int primary key, v text);")
    t.wait_for("CREATE TABLE")
    t.line(f"copy big from '{csv}' (format csv);")
    t.wait_for(r"COPY: \d+ rows, \d+ rows/s", timeout=10, what="the progress line")
    t.keys("C-c")
    t.wait_for(r"ERROR:  canceling statement due to user request", timeout=10)
    t.wait_for(PROMPT)
    t.line("select count(*) from big;")
    s = t.wait_for(r"\(1 row\)")
    expect(re.search(r"^\s+0$", s.split("select count(*) from big;")[-1], re.M), "the cancelled COPY loaded nothing", t)


def watch_and_pager(t):
    """\\watch repeats until Ctrl-C; \\pset pager always pipes results through $PAGER."""
    t.wait_for(PROMPT)
    t.line("select 'tick' as w \\watch 0.2")
    s = t.wait_for(r"(?s)tick.*tick.*tick", what="three runs of the watched query")
    expect("(every 0.2s)" in s, "psql's title line", t)
    t.keys("C-c")
    t.wait_for(PROMPT)
    t.line("\\pset pager always")
    t.wait_for("Pager is always used.")
    t.line("select 'through the pager' as p;")
    t.wait_for(r"PAGED: through the pager", what="the pager's marks")


def ctrl_c_stops_a_script(caracal, home):
    """Ctrl-C while a script (-f) waits for a call cancels the wait and ends the script
    with status 3, as psql does; the rest of the script does not run."""
    script = home / "slow.sql"
    script.write_text("create table c (k int primary key);\n"
                      "create procedure ins() language plpgsql as $$ begin insert into c values (1); end $$;\n"
                      "set caracal.adaptive_epochs = off;\n"
                      "set caracal.epoch_interval_ms = 60000;\n"
                      "call ins();\n"
                      "select 'never printed' as n;\n")
    t = Terminal(caracal, home, "script", args=["-X", "-f", str(script)], then_echo_status=True)
    try:
        t.wait_for(r"^SET$")
        time.sleep(0.3)
        t.keys("C-c")
        s = t.wait_for(r"EXIT=\d+", what="the exit status")
        expect("Cancel request sent" in s, "the cancel message", t)
        expect("EXIT=3" in s, "exit status 3", t)
        expect("never printed" not in s, "the script stopped", t)
    finally:
        t.close()


def editor(t):
    """\\e puts the query buffer in $EDITOR and re-reads it (a complete statement runs at
    once); \\ef edits a function's definition as CREATE OR REPLACE."""
    t.wait_for(PROMPT)
    t.line("select 1 as one")
    t.wait_for(r"^caracal-> ?$")
    t.line("\\e")
    t.wait_for(r"^select 7 as one\s*$", what="the edited buffer shown")
    t.line(";")
    t.wait_for(r"^\s+7\s*\n\(1 row\)", what="the edited statement's result")
    t.line("create function f() returns int language plpgsql as $$ begin return 1; end $$;")
    t.wait_for("CREATE FUNCTION")
    t.line("\\ef f")
    t.wait_for(r"^create or replace function f\(\) returns int", what="the function's definition")
    t.line(";")
    t.wait_for(r"(?s)CREATE FUNCTION.*\\ef f.*CREATE FUNCTION", what="the function re-created")
    t.line("select f();")
    t.wait_for(r"^\s+7\s*\n\(1 row\)\s*\ncaracal=> ?$", what="the edited function's result")


SCENARIOS = {
    "prompts_and_multiline": prompts_and_multiline,
    "transaction_prompts": transaction_prompts,
    "ctrl_c_cancels_input": ctrl_c_cancels_input,
    "ctrl_c_during_a_paste": ctrl_c_during_a_paste,
    "ctrl_c_stops_waiting": ctrl_c_stops_waiting,
    "line_editing": line_editing,
    "completion": completion,
    "history": history,
    "words_and_eof": words_and_eof,
    "bad_input_goes_on": bad_input_goes_on,
    "copy_progress_and_cancel": copy_progress_and_cancel,
    "watch_and_pager": watch_and_pager,
    "ctrl_c_stops_a_script": ctrl_c_stops_a_script,
    "editor": editor,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--caracal", default=str(ROOT / "build" / "caracal"))
    ap.add_argument("scenarios", nargs="*")
    args = ap.parse_args()
    if not shutil.which("tmux"):
        print("interactive.py: tmux is not installed (tools/setup.sh installs it)", file=sys.stderr)
        return 2
    caracal = pathlib.Path(args.caracal).resolve()
    failures = 0
    for name in args.scenarios or SCENARIOS:
        fn = SCENARIOS[name]
        home = pathlib.Path(tempfile.mkdtemp(prefix=f"caracal-{name}."))
        env = {"PAGER": "sed s/^/PAGED:/"} if name == "watch_and_pager" else None
        if name == "editor":
            env = {"EDITOR": "sed -i s/1/7/"}
        t = Terminal(caracal, home, name, env=env) if name != "ctrl_c_stops_a_script" else None
        try:
            if t is None:
                fn(caracal, home)
            elif name == "history":
                fn(t, caracal, home)
            else:
                fn(t)
            print(f"ok    {name}")
        except Failure as e:
            failures += 1
            print(f"FAIL  {name}: {e}")
        finally:
            if t:
                t.close()
            shutil.rmtree(home, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
