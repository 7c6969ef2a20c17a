#!/usr/bin/env python3
"""The security promises of the deployment, checked on the template the Bicep compiler built.

The compiler and its linter check everything else (syntax, types, module parameters and outputs, .bicepparam values,
unused declarations, secrets in outputs): infra/check-bicep.sh runs them first with zero warnings allowed. What they
cannot know is what this deployment promises:
  - no keys: no list*() call, connection string, account key or SAS anywhere, except the two accepted reads below;
  - Entra ID only: shared keys off on Storage, local auth off on Cosmos DB and Application Insights, no registry
    admin user, the job runs as its user-assigned identity (image pull included);
  - least privilege: every role assigned is one of the built-in data roles the loader needs;
  - one replica per execution (the loader reads one input in order) on a schedule;
  - stable API versions (no -preview).
The loader setting names the job passes are checked against the loader itself by the Deployment tests
(SettingNamesTests), not here.

Usage: python3 infra/validate_bicep.py <main.json built by `bicep build infra/bicep/main.bicep`>
Prints OK or the problems found; exit code 0 when OK, 1 otherwise.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # no __pycache__ left in infra/
sys.path.insert(0, str(HERE))
from validate_compose import report  # noqa: E402  (same folder)

# Built-in role definition ids this deployment may assign, by name.
KNOWN_ROLES = {
    "7f951dda-4ed3-4680-a7ca-43fe172d538d": "AcrPull",
    "0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3": "Storage Table Data Contributor",
    "2a2b9908-6ea1-4ae2-8e65-a410df84e7d1": "Storage Blob Data Reader",
    "ba92f5b4-2d11-453d-a403-e96b0029c9fe": "Storage Blob Data Contributor",
    "00000000-0000-0000-0000-000000000002": "Cosmos DB Built-in Data Contributor",
    "3913510d-42f4-4e42-8a64-420c390055eb": "Monitoring Metrics Publisher",
    "974c5e8b-45b9-4653-ba55-5f855dd0fb88": "Storage Queue Data Contributor",
}
ROLE_ASSIGNMENT_TYPES = {"Microsoft.Authorization/roleAssignments", "Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments"}
GUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
VARIABLE = re.compile(r"variables\('([^']+)'\)")

# The accepted key reads, removed before looking for secrets:
#  - the Container Apps environment's "log-analytics" destination needs the workspace's ingestion key; it goes from the
#    workspace to the environment at deployment time, is never output, and grants log ingestion only;
#  - the job gets the Application Insights connection string of a component with local authentication disabled, so its
#    instrumentation key names the component and grants nothing: the loader sends with its identity's token.
ACCEPTED_KEY_READS = [
    (re.compile(r"listKeys\(resourceId\('Microsoft\.OperationalInsights/workspaces', .*?\), '[\d-]+'\)\.primarySharedKey"),
     "Microsoft.App/managedEnvironments"),
    (re.compile(r"reference\(resourceId\('Microsoft\.Insights/components', .*?\), '[\d-]+'\)\.ConnectionString"),
     "Microsoft.App/jobs"),
]
SECRETS = re.compile(r"\blist\w*\(|connectionstring|accountkey|masterkey|sharedaccesssignature|sharedkey|\bsas\b", re.I)


def deployments(template: dict, path: str = "main"):
    """(where, template) for the template and every nested module deployment in it."""
    yield path, template
    for resource in resources(template):
        if resource.get("type") == "Microsoft.Resources/deployments":
            name = resource.get("name", "?")
            yield from deployments(resource["properties"]["template"], f"{path} > {name}")


def resources(template: dict) -> list[dict]:
    found = template.get("resources", [])
    return list(found.values()) if isinstance(found, dict) else list(found)


def strings(value):
    """Every string in a JSON value (expressions are strings)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def without_nested_templates(resource: dict) -> dict:
    """A module deployment's own expressions, not those of the template it deploys (checked on their own)."""
    if resource.get("type") != "Microsoft.Resources/deployments":
        return resource
    properties = {k: v for k, v in resource.get("properties", {}).items() if k != "template"}
    return {**resource, "properties": properties}


def check_secrets(where: str, template: dict, problems: list[str]) -> None:
    defaults = {name: parameter.get("defaultValue") for name, parameter in template.get("parameters", {}).items()}
    parts = [("parameter defaults", defaults), ("variables", template.get("variables", {})), ("outputs", template.get("outputs", {}))]
    parts += [(resource.get("type", "?"), without_nested_templates(resource)) for resource in resources(template)]
    for label, value in parts:
        for text in strings(value):
            remaining = text
            for pattern, accepted_in in ACCEPTED_KEY_READS:
                if label == accepted_in:
                    remaining = pattern.sub("<accepted>", remaining)
            if found := SECRETS.search(remaining):
                problems.append(f"{where}: {label}: '{found.group(0)}' in {shorten(text)}; use the managed identity and RBAC instead")


def shorten(text: str, width: int = 160) -> str:
    return text if len(text) <= width else text[:width] + "..."


def resolve(expression: str, template: dict) -> str:
    """An expression with its variables('x') replaced by their values, so role ids held in variables are seen."""
    variables = template.get("variables", {})
    return VARIABLE.sub(lambda m: json.dumps(variables.get(m.group(1), m.group(0))), expression)


def check_resource(where: str, template: dict, resource: dict, problems: list[str], roles: set[str]) -> None:
    type_ = resource.get("type", "")
    properties = resource.get("properties", {})
    name = f"{where}: {type_}"

    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", resource.get("apiVersion", "")):
        problems.append(f"{name}@{resource.get('apiVersion')}: not a stable API version")

    def expect(value, wanted, why: str) -> None:
        if value != wanted:
            problems.append(f"{name}: {why} (found {value!r}, expected {wanted!r})")

    if type_ == "Microsoft.Storage/storageAccounts":
        expect(properties.get("allowSharedKeyAccess"), False, "shared-key access must be off")
        expect(properties.get("allowBlobPublicAccess"), False, "anonymous blob access must be off")
        expect(properties.get("minimumTlsVersion"), "TLS1_2", "TLS 1.2 minimum")
    elif type_ == "Microsoft.Insights/components":
        expect(properties.get("DisableLocalAuth"), True, "local authentication must be off, so the connection string grants nothing")
    elif type_ == "Microsoft.DocumentDB/databaseAccounts":
        expect(properties.get("disableLocalAuth"), True, "Cosmos DB keys must be disabled")
    elif type_ == "Microsoft.ContainerRegistry/registries":
        expect(properties.get("adminUserEnabled"), False, "no registry admin user (its password is a key)")
    elif type_ == "Microsoft.App/jobs":
        expect(resource.get("identity", {}).get("type"), "UserAssigned", "the job runs as its user-assigned identity")
        configuration = properties.get("configuration", {})
        if configuration.get("triggerType") == "Manual":
            # The sharded load's workers: every replica drains the shard queue; one started per shard is not needed.
            manual = configuration.get("manualTriggerConfig", {})
            expect(manual.get("replicaCompletionCount"), manual.get("parallelism"), "every work replica completes when the queue is empty")
            expect(configuration.get("replicaRetryLimit"), 0, "a failed work replica's shard returns to the queue; the replica is not retried")
        else:
            expect(configuration.get("triggerType"), "Schedule", "a scheduled job (or a manual job of work replicas)")
            schedule = configuration.get("scheduleTriggerConfig", {})
            expect(schedule.get("parallelism"), 1, "one replica per execution: the loader reads one input in order")
            expect(schedule.get("replicaCompletionCount"), 1, "one completion per execution")
        for registry in configuration.get("registries", []):
            if not registry.get("identity") or registry.get("passwordSecretRef"):
                problems.append(f"{name}: the registry must be pulled with the managed identity, not a password")
        if "AZURE_CLIENT_ID" not in json.dumps(template.get("variables", {})):
            problems.append(f"{name}: AZURE_CLIENT_ID must be set, so DefaultAzureCredential picks the user-assigned identity")
    elif type_ in ROLE_ASSIGNMENT_TYPES:
        role = resolve(properties.get("roleDefinitionId", ""), template)
        ids = GUID.findall(role)
        if not ids:
            problems.append(f"{name}: role {shorten(role)} is not a built-in role id")
        for guid in ids:
            if guid.lower() not in KNOWN_ROLES:
                problems.append(f"{name}: role {guid} is none of the roles the loader needs ({', '.join(sorted(KNOWN_ROLES.values()))})")
            else:
                roles.add(KNOWN_ROLES[guid.lower()])


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().split("\n\n")[-1])
        return 2
    template = json.loads(Path(argv[1]).read_text())
    problems: list[str] = []
    roles: set[str] = set()
    checked = 0
    for where, nested in deployments(template):
        check_secrets(where, nested, problems)
        for resource in resources(nested):
            check_resource(where, nested, resource, problems, roles)
            checked += 1
    missing = sorted(set(KNOWN_ROLES.values()) - roles)
    if missing:
        problems.append(f"roles the loader needs are not assigned: {', '.join(missing)}")
    return report(problems, f"OK: {checked} resources of {argv[1]} keep the deployment's security promises "
                            f"({len(roles)} roles: {', '.join(sorted(roles))})", [])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
