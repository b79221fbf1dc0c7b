"""Helpers shared by the Python case scripts under tests/: record a failed
check (and go on with the others), run a shell command that must work."""
import subprocess

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def sh(cmd, cwd):
    subprocess.run(cmd, shell=True, check=True, cwd=cwd)
