#!/usr/bin/env python3
"""Structural checks of infra/bicep for machines without a Bicep compiler.

This is no compiler: it cannot know resource schemas or type-check expressions. It catches what
slips through most often when Bicep is edited blind:
  - unbalanced ( [ { or unterminated strings (interpolations and comments understood);
  - `module` paths that do not exist; params passed to a module that it does not declare, and
    required module params not passed; `<module>.outputs.<name>` that the module does not output;
  - bare identifiers that are declared nowhere (typos such as `location: locaton`);
  - duplicate declarations, unused params and variables;
  - .bicepparam files: `using` target exists, every param is declared in main.bicep, every
    required param of main.bicep is set, literal values fit @allowed and the declared type;
  - secrets: listKeys(, connectionString, accountKey and the like (one documented exception: the
    Log Analytics ingestion key the Container Apps environment needs);
  - every resource pins a stable `@yyyy-mm-dd` API version (no -preview);
  - the loader settings the job passes are real setting names; role ids are the known built-ins;
  - the security settings this deployment promises (shared keys off, local auth off, ...).

Usage: python3 infra/validate_bicep.py [infra/bicep]
Prints OK or the problems found; exit code 0 when OK, 1 otherwise.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # no __pycache__ left in infra/
sys.path.insert(0, str(HERE))
from validate_compose import loader_setting_known, report  # noqa: E402  (same folder)

REPO = HERE.parent

OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = set(OPENERS.values())
KEYWORDS = {
    "param", "var", "resource", "module", "output", "existing", "if", "for", "in", "true", "false",
    "null", "targetScope", "using", "import", "metadata", "type", "func", "as", "with",
    "string", "int", "bool", "object", "array", "resourceInput", "resourceOutput",
}
# Built-in role definition ids this deployment may use, by name.
KNOWN_ROLES = {
    "7f951dda-4ed3-4680-a7ca-43fe172d538d": "AcrPull",
    "0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3": "Storage Table Data Contributor",
    "2a2b9908-6ea1-4ae2-8e65-a410df84e7d1": "Storage Blob Data Reader",
    "ba92f5b4-2d11-453d-a403-e96b0029c9fe": "Storage Blob Data Contributor",
    "00000000-0000-0000-0000-000000000002": "Cosmos DB Built-in Data Contributor",
    "3913510d-42f4-4e42-8a64-420c390055eb": "Monitoring Metrics Publisher",
}
# API versions chosen for this deployment; a different one is reported as a note.
EXPECTED_API_VERSIONS = {
    "Microsoft.App/jobs": "2024-03-01",
    "Microsoft.App/managedEnvironments": "2024-03-01",
    "Microsoft.OperationalInsights/workspaces": "2023-09-01",
    "Microsoft.Storage/storageAccounts": "2023-05-01",
    "Microsoft.DocumentDB/databaseAccounts": "2024-05-15",
    "Microsoft.Authorization/roleAssignments": "2022-04-01",
    "Microsoft.ManagedIdentity/userAssignedIdentities": "2023-01-31",
    "Microsoft.ContainerRegistry/registries": "2023-07-01",
    "Microsoft.Insights/components": "2020-02-02",
}
FORBIDDEN = [
    ("listKeys(", "reads account keys"),
    ("listConnectionStrings", "reads connection strings"),
    ("listAccountSas", "mints a SAS"),
    ("listServiceSas", "mints a SAS"),
    ("connectionString", "connection strings carry keys"),
    ("accountKey", "account keys"),
    ("primaryMasterKey", "Cosmos DB keys"),
    ("SharedAccessSignature", "SAS tokens"),
]
# The one accepted key read: the Container Apps environment's "log-analytics" destination needs
# the workspace's ingestion key. It goes from the workspace to the environment at deployment
# time, is never output, and grants log ingestion only.
# The second: the Application Insights connection string the job gets. monitoring.bicep must create the component with
# local authentication disabled (REQUIRED_TEXT), so its instrumentation key names it and grants nothing: the loader
# sends with its identity's token.
ALLOWED_KEY_READS = {
    ("modules/monitoring.bicep", "workspace.listKeys().primarySharedKey"): (
        "Microsoft.OperationalInsights/workspaces@", "Log Analytics ingestion key for the Container Apps environment; never output"),
    ("modules/job.bicep", "applicationInsights.properties.ConnectionString"): (
        "Microsoft.Insights/components@", "Application Insights connection string of a component with local authentication disabled"),
}
# Settings this deployment promises, per file: (text that must appear, why).
REQUIRED_TEXT = {
    "modules/storage.bicep": [
        ("allowSharedKeyAccess: false", "no shared-key access to storage"),
        ("minimumTlsVersion: 'TLS1_2'", "TLS 1.2 minimum"),
        ("allowBlobPublicAccess: false", "no anonymous blob access"),
    ],
    "modules/monitoring.bicep": [
        ("DisableLocalAuth: true", "Application Insights accepts tokens only, so its connection string is no secret"),
    ],
    "modules/cosmos.bicep": [
        ("disableLocalAuth: true", "Cosmos DB keys disabled"),
        ("path: '/*'", "indexing excludes /* (only listed paths indexed)"),
    ],
    "modules/job.bicep": [
        ("triggerType: 'Schedule'", "scheduled job"),
        ("parallelism: 1", "one replica per execution"),
        ("replicaCompletionCount: 1", "one completion per execution"),
        ("identity: identityId", "registry pulled with the managed identity"),
        ("'AZURE_CLIENT_ID'", "DefaultAzureCredential selects the user-assigned identity"),
        ("type: 'UserAssigned'", "user-assigned identity attached"),
    ],
    "modules/roles.bicep": [
        ("Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@", "Cosmos DB data role via sqlRoleAssignments"),
    ],
}


@dataclass
class Param:
    name: str
    type: str
    has_default: bool
    allowed: list[str] = field(default_factory=list)
    line: int = 0

    @property
    def required(self) -> bool:
        return not self.has_default and not self.type.endswith("?")


@dataclass
class BicepFile:
    path: Path
    text: str
    no_comments: str = ""   # comments blanked, strings intact
    code_only: str = ""     # comments and string contents blanked (interpolations kept)
    params: dict[str, Param] = field(default_factory=dict)
    variables: dict[str, int] = field(default_factory=dict)
    resources: dict[str, tuple[str, int]] = field(default_factory=dict)
    modules: dict[str, tuple[str, int]] = field(default_factory=dict)
    outputs: dict[str, int] = field(default_factory=dict)
    loop_vars: set[str] = field(default_factory=set)


def scan(text: str, where: str, problems: list[str]) -> tuple[str, str]:
    """Return (no_comments, code_only), both the length of text, and report bracket/string errors."""
    no_comments: list[str] = []
    code_only: list[str] = []
    stack: list[tuple[str, int]] = []
    i, line, n = 0, 1, len(text)
    in_string = False

    def blank(segment: str) -> str:
        return "".join("\n" if ch == "\n" else " " for ch in segment)

    while i < n:
        c = text[i]
        if not in_string:
            if text.startswith("'''", i):
                end = text.find("'''", i + 3)
                if end < 0:
                    problems.append(f"{where}:{line}: unterminated ''' string")
                    segment = text[i:]
                else:
                    segment = text[i:end + 3]
                no_comments.append(segment)
                code_only.append("'" + blank(segment[1:-1]) + "'" if len(segment) > 1 else segment)
                line += segment.count("\n")
                i += len(segment)
                continue
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                no_comments.append(blank(text[i:end]))
                code_only.append(blank(text[i:end]))
                i = end
                continue
            if text.startswith("/*", i):
                end = text.find("*/", i + 2)
                if end < 0:
                    problems.append(f"{where}:{line}: unterminated /* comment")
                    end = n
                segment = text[i:end + 2]
                no_comments.append(blank(segment))
                code_only.append(blank(segment))
                line += segment.count("\n")
                i += len(segment)
                continue
            if c == "'":
                in_string = True
            elif c in OPENERS:
                stack.append((c, line))
            elif c in CLOSERS:
                if not stack:
                    problems.append(f"{where}:{line}: '{c}' closes nothing")
                else:
                    top, opened = stack.pop()
                    if top == "${":
                        if c != "}":
                            problems.append(f"{where}:{line}: '{c}' ends the interpolation opened on line {opened}")
                        in_string = True
                    elif OPENERS[top] != c:
                        problems.append(f"{where}:{line}: '{c}' closes '{top}' opened on line {opened}")
            if c == "\n":
                line += 1
            no_comments.append(c)
            code_only.append(c)
            i += 1
        else:
            if c == "\\" and i + 1 < n:
                no_comments.append(text[i:i + 2])
                code_only.append("  ")
                i += 2
                continue
            if text.startswith("${", i):
                stack.append(("${", line))
                in_string = False
                no_comments.append("${")
                code_only.append("${")
                i += 2
                continue
            if c == "'":
                in_string = False
                no_comments.append(c)
                code_only.append(c)
                i += 1
                continue
            if c == "\n":
                problems.append(f"{where}:{line}: string not closed before the end of the line")
                line += 1
                in_string = False
            no_comments.append(c)
            code_only.append("\n" if c == "\n" else " ")
            i += 1
    if in_string:
        problems.append(f"{where}: string not closed at end of file")
    for top, opened in stack:
        problems.append(f"{where}:{opened}: '{top}' is never closed")
    return "".join(no_comments), "".join(code_only)


def matching(code: str, start: int) -> int:
    """Index of the bracket closing the one at start (code_only text, strings blanked)."""
    depth = 0
    for index in range(start, len(code)):
        if code[index] in OPENERS:
            depth += 1
        elif code[index] in CLOSERS:
            depth -= 1
            if depth == 0:
                return index
    return len(code) - 1


def line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def parse(path: Path, problems: list[str]) -> BicepFile:
    where = path.relative_to(REPO).as_posix()
    bicep = BicepFile(path, path.read_text())
    bicep.no_comments, bicep.code_only = scan(bicep.text, where, problems)
    lines = bicep.no_comments.split("\n")
    seen: dict[str, int] = {}

    def declare(name: str, number: int) -> None:
        if name in seen:
            problems.append(f"{where}:{number}: '{name}' is declared again (first on line {seen[name]})")
        seen[name] = number

    for index, raw in enumerate(lines):
        number = index + 1
        stripped = raw.strip()
        if match := re.match(r"param\s+(\w+)\s+([^=]+?)\s*(=\s*(.*))?$", stripped):
            name, type_, default = match.group(1), match.group(2).strip(), match.group(3)
            allowed = []
            back = index - 1
            decorators = []
            while back >= 0:
                previous = lines[back].strip()
                if previous.startswith("@") or re.fullmatch(r"('([^']|\\')*'|-?\d+|true|false|\]\)|\])", previous):
                    decorators.append(previous)
                    back -= 1
                else:
                    break
            decorator_text = "\n".join(reversed(decorators))
            if allowed_match := re.search(r"@allowed\(\[(.*?)\]\)", decorator_text, re.S):
                allowed = re.findall(r"'((?:[^'\\]|\\.)*)'", allowed_match.group(1))
            declare(name, number)
            bicep.params[name] = Param(name, type_, default is not None, allowed, number)
        elif match := re.match(r"var\s+(\w+)\s*=", stripped):
            declare(match.group(1), number)
            bicep.variables[match.group(1)] = number
        elif match := re.match(r"resource\s+(\w+)\s+'([^']+)'", stripped):
            declare(match.group(1), number)
            bicep.resources[match.group(1)] = (match.group(2), number)
        elif match := re.match(r"module\s+(\w+)\s+'([^']+)'", stripped):
            declare(match.group(1), number)
            bicep.modules[match.group(1)] = (match.group(2), number)
        elif match := re.match(r"output\s+(\w+)\s+", stripped):
            bicep.outputs[match.group(1)] = number
    for match in re.finditer(r"\bfor\s+(?:\(\s*)?(\w+)(?:\s*,\s*(\w+))?\s*\)?\s+in\b", bicep.code_only):
        bicep.loop_vars |= {name for name in match.groups() if name}
    return bicep


def declared_names(bicep: BicepFile) -> set[str]:
    return set(bicep.params) | set(bicep.variables) | set(bicep.resources) | set(bicep.modules) | bicep.loop_vars


def is_object_key(code: str, start: int, end: int) -> bool:
    """An identifier followed by ':' that starts a line or follows '{' or ',' is an object key."""
    after = code[end:].lstrip(" \t")
    if not after.startswith(":") or after.startswith("::"):
        return False
    line_start = code.rfind("\n", 0, start) + 1
    before = code[line_start:start].rstrip()
    return before == "" or before.endswith(("{", ","))


def check_identifiers(bicep: BicepFile, where: str, problems: list[str]) -> None:
    """Bare identifiers used as values must be declared (catches typos)."""
    known = declared_names(bicep) | KEYWORDS
    code = bicep.code_only
    for match in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", code):
        name, start, end = match.group(0), match.start(), match.end()
        before = code[start - 1] if start > 0 else " "
        after = code[end:].lstrip(" \t")
        if before in ".@" or after.startswith("(") or is_object_key(code, start, end):
            continue
        line_start = code.rfind("\n", 0, start) + 1
        prefix = code[line_start:start].strip()
        # the name being declared, and the type after it
        if re.fullmatch(r"(param|var|resource|module|output|type|func)(\s+\w+)?", prefix):
            continue
        if re.fullmatch(r"(for|for\s*\()\s*(\w+\s*,\s*)?", prefix) or prefix.endswith(" in"):
            continue
        if name in known or name.isdigit():
            continue
        problems.append(f"{where}:{line_of(code, start)}: '{name}' is not declared (typo?)")


def check_unused(bicep: BicepFile, where: str, problems: list[str]) -> None:
    code = bicep.code_only
    for kind, names in (("param", bicep.params), ("var", bicep.variables)):
        for name in names:
            uses = [m for m in re.finditer(rf"(?<![.\w@]){re.escape(name)}\b", code)
                    if not is_object_key(code, m.start(), m.end())]
            # the declaration itself is one occurrence
            if len(uses) <= 1:
                problems.append(f"{where}: {kind} '{name}' is never used")


def module_call_params(bicep: BicepFile, symbol: str) -> tuple[set[str], int]:
    """Keys of `params: { ... }` in the module declaration `symbol`."""
    code = bicep.code_only
    declaration = re.search(rf"^\s*module\s+{symbol}\s+'", code, re.M)
    if not declaration:
        return set(), 0
    body_start = code.find("{", declaration.end())
    body_end = matching(code, body_start)
    body = code[body_start:body_end + 1]
    params_match = re.search(r"\bparams\s*:\s*\{", body)
    if not params_match:
        return set(), line_of(code, declaration.start())
    open_index = body_start + params_match.end() - 1
    close_index = matching(code, open_index)
    keys = set()
    depth = 0
    for index in range(open_index, close_index + 1):
        ch = code[index]
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth -= 1
        elif depth == 1 and (index == 0 or code[index - 1] == "\n" or code[index - 1] in "{ \t"):
            if key := re.match(r"(\w+)\s*:", code[index:]):
                line_start = code.rfind("\n", 0, index) + 1
                if code[line_start:index].strip() == "":
                    keys.add(key.group(1))
    return keys, line_of(code, declaration.start())


def literal_kind(value: str) -> str | None:
    value = value.strip()
    if value.startswith("'"):
        return "string"
    if re.fullmatch(r"-?\d+", value):
        return "int"
    if value in ("true", "false"):
        return "bool"
    if value.startswith("["):
        return "array"
    if value.startswith("{"):
        return "object"
    return None  # an expression: not checked


def check_bicepparam(path: Path, main: BicepFile, problems: list[str]) -> int:
    where = path.relative_to(REPO).as_posix()
    text = path.read_text()
    no_comments, _ = scan(text, where, problems)
    using = re.search(r"^\s*using\s+'([^']+)'", no_comments, re.M)
    if not using:
        problems.append(f"{where}: no `using '<file>.bicep'` line")
    elif (path.parent / using.group(1)).resolve() != main.path.resolve():
        target = (path.parent / using.group(1))
        if not target.exists():
            problems.append(f"{where}: using target {using.group(1)!r} does not exist")
    given: dict[str, str] = {}
    for match in re.finditer(r"^\s*param\s+(\w+)\s*=\s*(.*)$", no_comments, re.M):
        name, value = match.group(1), match.group(2)
        number = line_of(no_comments, match.start())
        if name in given:
            problems.append(f"{where}:{number}: param '{name}' set twice")
        given[name] = value
        declared = main.params.get(name)
        if declared is None:
            problems.append(f"{where}:{number}: param '{name}' is not declared in {main.path.name}")
            continue
        kind = literal_kind(value)
        base_type = declared.type.rstrip("?")
        if kind and base_type in ("string", "int", "bool", "array", "object") and kind != base_type:
            problems.append(f"{where}:{number}: param '{name}' is {base_type} but is given a {kind}")
        if kind == "string" and declared.allowed:
            literal = re.match(r"'((?:[^'\\]|\\.)*)'", value.strip())
            if literal and literal.group(1) not in declared.allowed:
                problems.append(f"{where}:{number}: param '{name}' = {literal.group(1)!r}, allowed: {declared.allowed}")
    for name, param in main.params.items():
        if param.required and name not in given:
            problems.append(f"{where}: required param '{name}' of {main.path.name} is not set")
    return len(given)


def check_file(bicep: BicepFile, files: dict[Path, BicepFile], root: Path, problems: list[str], notes: list[str]) -> None:
    where = bicep.path.relative_to(REPO).as_posix()
    relative = bicep.path.relative_to(root).as_posix()

    # API versions
    for symbol, (type_version, number) in bicep.resources.items():
        type_, _, version = type_version.partition("@")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", version):
            problems.append(f"{where}:{number}: resource {symbol} '{type_version}' has no stable @yyyy-mm-dd API version")
            continue
        top_type = "/".join(type_.split("/")[:2])
        expected = EXPECTED_API_VERSIONS.get(top_type)
        if expected and version != expected:
            notes.append(f"{where}:{number}: {type_} uses {version}, the deployment's other {top_type} resources use {expected}")

    # modules
    for symbol, (module_path, number) in bicep.modules.items():
        if module_path.startswith(("br:", "br/", "ts:", "ts/")):
            notes.append(f"{where}:{number}: module {symbol} comes from a registry; not checked")
            continue
        target = (bicep.path.parent / module_path).resolve()
        if not target.exists():
            problems.append(f"{where}:{number}: module {symbol}: '{module_path}' does not exist")
            continue
        module = files.get(target)
        if module is None:
            continue
        passed, _ = module_call_params(bicep, symbol)
        for key in sorted(passed - set(module.params)):
            problems.append(f"{where}:{number}: module {symbol} passes '{key}', which {module_path} does not declare")
        for name, param in module.params.items():
            if param.required and name not in passed:
                problems.append(f"{where}:{number}: module {symbol} does not pass required param '{name}' of {module_path}")
        for use in re.finditer(rf"\b{symbol}\.outputs\.(\w+)", bicep.code_only):
            if use.group(1) not in module.outputs:
                problems.append(f"{where}:{line_of(bicep.code_only, use.start())}: {module_path} has no output '{use.group(1)}'")

    check_identifiers(bicep, where, problems)
    check_unused(bicep, where, problems)

    # secrets
    lowered = bicep.no_comments.lower()
    for needle, reason in FORBIDDEN:
        start = 0
        while (found := lowered.find(needle.lower(), start)) >= 0:
            start = found + 1
            snippet_start = max(bicep.no_comments.rfind(" ", 0, found), bicep.no_comments.rfind("\n", 0, found)) + 1
            snippet = re.match(r"[\w.()]+", bicep.no_comments[snippet_start:])
            snippet_text = snippet.group(0) if snippet else needle
            if (relative, snippet_text) in ALLOWED_KEY_READS:
                resource_type, why = ALLOWED_KEY_READS[(relative, snippet_text)]
                resource = bicep.resources.get(snippet_text.split(".")[0], ("", 0))[0]
                if resource.startswith(resource_type):
                    notes.append(f"{where}:{line_of(bicep.no_comments, found)}: accepted key read {snippet_text} ({why})")
                    continue
            problems.append(f"{where}:{line_of(bicep.no_comments, found)}: '{needle}' found ({reason}); "
                            "use managed identity and RBAC instead")

    # outputs must not carry secrets
    for name, number in bicep.outputs.items():
        if re.search(r"key|secret|password|token|connection", name, re.I):
            problems.append(f"{where}:{number}: output '{name}' looks like a secret")

    # role ids
    for guid in re.findall(r"'([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})'", bicep.no_comments):
        if guid.lower() not in KNOWN_ROLES:
            problems.append(f"{where}: unknown role definition id {guid}")

    # loader settings passed as environment variables
    for setting in re.findall(r"name:\s*'(Loader__[^']*)'", bicep.no_comments):
        key = setting[len("Loader__"):].replace("__", ":")
        key = re.sub(r"\$\{[^}]*\}", "x", key)
        if not loader_setting_known(key):
            problems.append(f"{where}: environment {setting}: 'Loader:{key}' is not a loader setting")

    for needle, why in REQUIRED_TEXT.get(relative, []):
        if needle not in bicep.no_comments:
            problems.append(f"{where}: missing `{needle}` ({why})")


def main(argv: list[str]) -> int:
    root = Path(argv[1]).resolve() if len(argv) > 1 else HERE / "bicep"
    problems: list[str] = []
    notes: list[str] = []
    bicep_paths = sorted(root.rglob("*.bicep"))
    param_paths = sorted(root.rglob("*.bicepparam"))
    if not bicep_paths:
        print(f"problems:\n  - no .bicep files under {root}")
        return 1
    files = {path.resolve(): parse(path, problems) for path in bicep_paths}
    for bicep in files.values():
        check_file(bicep, files, root, problems, notes)

    main_file = files.get((root / "main.bicep").resolve())
    if main_file is None:
        problems.append(f"{root}/main.bicep is missing")
    else:
        if not param_paths:
            problems.append("no .bicepparam files")
        for path in param_paths:
            check_bicepparam(path, main_file, problems)
        referenced = {(path.parent / module_path).resolve()
                      for bicep in files.values() for module_path, _ in bicep.modules.values()
                      for path in [bicep.path]}
        for path in files:
            if path != main_file.path.resolve() and path not in referenced:
                notes.append(f"{path.relative_to(REPO)} is not used by any module declaration")

    resources = sum(len(bicep.resources) for bicep in files.values())
    return report(problems, f"OK: {len(files)} .bicep files ({resources} resource declarations), "
                            f"{len(param_paths)} .bicepparam files under {root.relative_to(REPO)}", notes)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
