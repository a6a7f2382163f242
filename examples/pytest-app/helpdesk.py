"""A tiny help-desk app: it receives support-ticket JSON written by an agent and routes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

QUEUES = {
    "authentication": "identity",
    "billing": "finance",
    "performance": "platform",
    "bug": "engineering",
    "feature_request": "product",
}
RESPONSE_HOURS = {"critical": 1, "high": 4, "medium": 24, "low": 72}
ON_CALL = "on-call"


@dataclass(frozen=True)
class Ticket:
    """A support ticket as the app stores it (the ``support-ticket`` contract's fields)."""

    summary: str
    severity: str
    category: str
    description: str | None = None
    affected_users: str | None = None
    customer_email: str | None = None
    steps_to_reproduce: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> Ticket:
        return cls(
            summary=document["summary"],
            severity=document["severity"],
            category=document["category"],
            description=document.get("description"),
            affected_users=document.get("affected_users"),
            customer_email=document.get("customer_email"),
            steps_to_reproduce=tuple(document.get("steps_to_reproduce", ())),
            tags=tuple(document.get("tags", ())),
        )

    def to_json(self) -> dict[str, Any]:
        """The ticket as JSON again, e.g. as ``currentJson`` for the agent's next edit."""
        document: dict[str, Any] = {"summary": self.summary, "severity": self.severity, "category": self.category}
        for key in ("description", "affected_users", "customer_email"):
            if getattr(self, key) is not None:
                document[key] = getattr(self, key)
        if self.steps_to_reproduce:
            document["steps_to_reproduce"] = list(self.steps_to_reproduce)
        if self.tags:
            document["tags"] = list(self.tags)
        return document


def route(ticket: Ticket) -> str:
    """The queue that handles a ticket: critical ones page the on-call engineer."""
    return ON_CALL if ticket.severity == "critical" else QUEUES[ticket.category]


def response_hours(ticket: Ticket) -> int:
    """Promised first-response time; an outage for everyone is answered at once."""
    if ticket.affected_users == "all_users":
        return 0
    return RESPONSE_HOURS[ticket.severity]
