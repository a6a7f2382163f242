"""A small stand-in for GitHub's runner: runs the composite action in action.yml with bash.

It reads action.yml, evaluates the few expression forms the action uses (``inputs.X``,
``steps.ID.outputs.NAME``, ``A != 'b'`` joined by ``&&``) and runs each ``run:`` step as
GitHub does for ``shell: bash`` (``bash --noprofile --norc -eo pipefail FILE``) with the
step's ``env:`` and the runner's variables (``GITHUB_ACTION_PATH``, ``GITHUB_WORKSPACE``,
``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``, ``RUNNER_TEMP``). Composite actions get no
``INPUT_*`` variables, so neither do these steps. A ``uses:`` step that would run must be
given its outputs by the test. Anything it cannot evaluate raises, so an action.yml change
the simulation does not understand fails loudly instead of being skipped.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]  # tests/support/ -> the repository
ACTION_YML = REPO / "action.yml"
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_COMPARISON = re.compile(r"^(?P<left>[\w.-]+)\s*(?P<op>==|!=)\s*'(?P<right>[^']*)'$")


def load_action() -> dict[str, Any]:
    with open(ACTION_YML, encoding="utf-8") as handle:
        data: dict[str, Any] = yaml.safe_load(handle)
    return data


@dataclass
class StepRun:
    id: str
    name: str
    returncode: int | None  # None: skipped
    stdout: str = ""
    stderr: str = ""
    outputs: dict[str, str] = field(default_factory=dict)
    summary: str = ""


@dataclass
class ActionRun:
    returncode: int
    steps: list[StepRun]
    outputs: dict[str, str]

    @property
    def stdout(self) -> str:
        return "".join(step.stdout for step in self.steps)

    @property
    def stderr(self) -> str:
        return "".join(step.stderr for step in self.steps)

    @property
    def summary(self) -> str:
        return "".join(step.summary for step in self.steps)

    def step(self, step_id: str) -> StepRun:
        return next(step for step in self.steps if step.id == step_id)


def parse_output_file(text: str) -> dict[str, str]:
    """``name=value`` lines and ``name<<DELIMITER`` blocks, as the runner reads ``$GITHUB_OUTPUT``."""
    outputs: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body: list[str] = []
            while lines[index] != delimiter:
                body.append(lines[index])
                index += 1
            index += 1
            outputs[name] = "\n".join(body)
        elif line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


class Runner:
    """Runs action.yml's steps for one invocation (``with:`` values in ``inputs``)."""

    def __init__(
        self,
        *,
        workspace: Path,
        temp: Path,
        inputs: dict[str, str],
        path: list[str],
        uses_outputs: dict[str, dict[str, str]] | None = None,
    ) -> None:
        self.action = load_action()
        unknown = set(inputs) - set(self.action["inputs"])
        assert not unknown, f"action.yml has no input(s) {sorted(unknown)}"
        self.inputs = {name: str(spec.get("default", "")) for name, spec in self.action["inputs"].items()}
        self.inputs.update(inputs)
        self.workspace = workspace
        self.temp = temp
        self.path = path
        self.uses_outputs = uses_outputs or {}
        self.step_outputs: dict[str, dict[str, str]] = {}

    def evaluate(self, expression: str) -> str:
        parts = expression.split(".")
        if len(parts) == 2 and parts[0] == "inputs":
            return self.inputs[parts[1]]
        if len(parts) == 4 and parts[0] == "steps" and parts[2] == "outputs":
            return self.step_outputs.get(parts[1], {}).get(parts[3], "")
        raise NotImplementedError(f"the simulated runner cannot evaluate ${{{{ {expression} }}}}")

    def substitute(self, text: str) -> str:
        return _EXPRESSION.sub(lambda match: self.evaluate(match.group(1)), text)

    def condition(self, text: str | None) -> bool:
        if text is None:
            return True
        result = True
        for clause in _EXPRESSION.sub(r"\1", text).split("&&"):
            match = _COMPARISON.match(clause.strip())
            if match is None:
                raise NotImplementedError(f"the simulated runner cannot evaluate if: {text}")
            equal = self.evaluate(match["left"]) == match["right"]
            result = result and (equal if match["op"] == "==" else not equal)
        return result

    def run(self) -> ActionRun:
        runs = self.action["runs"]
        assert runs["using"] == "composite"
        steps: list[StepRun] = []
        failed = 0
        for number, step in enumerate(runs["steps"]):
            step_id = step.get("id", f"step{number}")
            name = step.get("name", step_id)
            if failed or not self.condition(step.get("if")):
                steps.append(StepRun(step_id, name, None))
                continue
            if "uses" in step:
                action = step["uses"].split("@", 1)[0]
                if action not in self.uses_outputs:
                    raise NotImplementedError(f"step {name!r} uses {action}; give its outputs in uses_outputs")
                self.step_outputs[step_id] = dict(self.uses_outputs[action])
                steps.append(StepRun(step_id, name, 0, outputs=self.step_outputs[step_id]))
                continue
            result = self._run_step(number, step_id, name, step)
            steps.append(result)
            self.step_outputs[step_id] = result.outputs
            failed = result.returncode or 0
        outputs = {name: self.substitute(spec["value"]) for name, spec in self.action.get("outputs", {}).items()}
        return ActionRun(failed, steps, outputs)

    def _run_step(self, number: int, step_id: str, name: str, step: dict[str, Any]) -> StepRun:
        assert step.get("shell") == "bash", f"step {name!r} must say shell: bash"
        files = self.temp / f"_runner_files_{number}"
        files.mkdir(parents=True, exist_ok=True)
        script = files / "step.sh"
        script.write_text(step["run"], encoding="utf-8")  # never substituted: inputs arrive via env only
        output_file = files / "output"
        summary_file = files / "step_summary"
        output_file.touch()
        summary_file.touch()
        env = {
            "PATH": os.pathsep.join(self.path),
            "HOME": str(self.temp),
            "LANG": "C.UTF-8",
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_ACTION_PATH": str(REPO),
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_OUTPUT": str(output_file),
            "GITHUB_STEP_SUMMARY": str(summary_file),
            "RUNNER_TEMP": str(self.temp),
        }
        env.update({key: self.substitute(str(value)) for key, value in step.get("env", {}).items()})
        completed = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=self.workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        return StepRun(
            step_id,
            name,
            completed.returncode,
            completed.stdout,
            completed.stderr,
            parse_output_file(output_file.read_text(encoding="utf-8")),
            summary_file.read_text(encoding="utf-8"),
        )
