"""A peer's own virtual environment: created and filled from its pinned requirements file on
first use, then the running script re-executes itself inside it."""
import os
import subprocess
import sys


def enter(venv: str, requirements: str, pip_arguments: tuple = ()) -> None:
    """Re-runs the current script inside `venv`, creating it and installing `requirements`
    (with `pip_arguments`) first when it does not exist; returns at once inside it."""
    python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        *pip_arguments, "-r", requirements], check=True)
    os.execv(python, [python] + sys.argv)
