"""The compiler's built-in vocabulary: attribute keys with their aliases, the classes of
values that name an attribute by themselves, and the words that make a noun a role.

Data, not logic. The attribute registry (migration 019) starts from :data:`ATTRIBUTES`; the
store adds what the compiler learns there, and a person merges near-synonyms like tag
aliases. Seed 002 §4: "Normalise the attribute to a short stable snake_case key. Prefer an
existing attribute over a near-synonym (employer, not works_at and company on alternate
days)" -- so "works at", "joined" and "employer" are one key, and "lives in", "moved to" and
"based in" another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ONE, MANY = "one", "many"


@dataclass(frozen=True)
class AttributeSpec:
    """One canonical attribute key of the built-in registry."""

    key: str
    cardinality: str
    #: phrases that name it in a statement or a question ("lives in", "moved to", "home")
    aliases: tuple[str, ...]
    #: words by which a question asks for it ("where do we *live*?"), lemmas
    question_words: tuple[str, ...]
    #: what a group holds its members hold too: "we live in Porto" is the speaker's home
    member_holds: bool = False
    description: str = ""


ATTRIBUTES: tuple[AttributeSpec, ...] = (
    AttributeSpec("lives_in", ONE, ("live in", "lives in", "living in", "reside in",
                                    "based in", "moved to", "relocated to", "settled in",
                                    "home", "moved into", "located in"),
                  ("live", "lives", "living", "reside", "home", "based", "located"),
                  member_holds=True, description="where someone lives"),
    AttributeSpec("employer", ONE, ("work at", "works at", "work for", "works for",
                                    "employed by", "employed at", "joined", "started at",
                                    "hired by", "company", "employer", "works_at"),
                  ("work", "works", "working", "employer", "company", "employed"),
                  member_holds=True, description="who someone works for"),
    AttributeSpec("job_title", ONE, ("works as", "role", "title", "position", "job",
                                     "promoted to", "took over as", "became", "job_title"),
                  ("role", "title", "position", "job"),
                  description="someone's role or title"),
    AttributeSpec("reports_to", ONE, ("reports to", "report to", "manager", "boss",
                                      "line manager"),
                  ("report", "reports", "manager", "boss"),
                  description="whom someone reports to"),
    AttributeSpec("database", ONE, ("database", "db", "runs on", "database engine"),
                  ("database", "db"), description="the database a system runs on"),
    AttributeSpec("runtime", ONE, ("runtime", "language version"),
                  ("runtime", "python", "node", "java", "version"),
                  description="the language runtime a system runs"),
    AttributeSpec("ci_system", ONE, ("ci", "ci system", "continuous integration", "ci tool",
                                     "builds", "build system", "builds on"),
                  ("ci", "build", "builds"), description="what runs the builds"),
    AttributeSpec("editor", MANY, ("editor", "text editor", "ide"),
                  ("editor", "ide"), description="editors someone uses"),
    AttributeSpec("region", MANY, ("region", "regions", "deployed in", "hosted in",
                                   "runs in"),
                  ("region", "regions", "hosted", "deployed"),
                  description="where a system runs (a move replaces, 'also' adds)"),
    AttributeSpec("headquarters", ONE, ("headquarters", "hq", "head office",
                                        "headquartered in"),
                  ("headquarters", "headquartered", "hq"),
                  description="where an organisation is headquartered"),
    AttributeSpec("instance_type", ONE, ("instance type", "instance", "machine type"),
                  ("instance", "type"), description="the machine a system runs on"),
    AttributeSpec("retention", ONE, ("retention", "log retention", "keep logs"),
                  ("retention", "keep", "long"), description="how long something is kept"),
    AttributeSpec("name", ONE, ("renamed to", "called", "named"), ("name", "called"),
                  description="what something is called"),
    AttributeSpec("uses", MANY, ("use", "uses", "using", "uses_tool"),
                  ("use", "uses", "using", "tool", "tools"),
                  description="tools something uses"),
    AttributeSpec("monitoring", MANY, ("monitoring", "observability"),
                  ("monitoring", "monitor", "observability"),
                  description="monitoring tools"),
    AttributeSpec("speaks", MANY, ("speak", "speaks", "language"),
                  ("speak", "speaks", "language", "languages"),
                  description="languages someone speaks"),
    AttributeSpec("plays", MANY, ("plays", "play", "instrument", "instruments"),
                  ("play", "plays", "instrument", "instruments"),
                  description="instruments or games someone plays"),
    AttributeSpec("manages", MANY, ("manages", "manage", "accounts"),
                  ("manage", "manages", "accounts"),
                  description="what someone manages"),
    AttributeSpec("written_in", MANY, ("written in", "programming language",
                                       "programming languages"),
                  ("written", "programming"),
                  description="languages a system is written in"),
    AttributeSpec("member_of", MANY, ("member of", "belongs to", "part of"),
                  ("member", "members", "club", "clubs", "belong", "part", "committee",
                   "rotation", "board", "crew", "band", "choir", "guild"),
                  description="groups someone belongs to"),
    AttributeSpec("team", ONE, ("team", "works on", "on the team"), ("team",),
                  description="the team someone works on (one at a time; a club is member_of)"),
    AttributeSpec("office", ONE, ("office", "works from", "sits in"), ("office", "sit"),
                  description="the office someone works from"),
    AttributeSpec("os", ONE, ("operating system", "os"), ("os", "operating"),
                  description="the operating system"),
    AttributeSpec("phone", ONE, ("phone", "mobile"), ("phone", "mobile"),
                  description="the phone someone has"),
    AttributeSpec("car", ONE, ("car", "drives"), ("car", "drive", "drives"),
                  description="the car someone drives"),
    AttributeSpec("cloud", ONE, ("cloud", "cloud provider", "hosted on"),
                  ("cloud", "provider"), description="the cloud a system runs on"),
    AttributeSpec("replicas", ONE, ("replicas", "replica count"), ("replica", "replicas"),
                  description="how many replicas a service runs"),
    AttributeSpec("headcount", ONE, ("headcount", "employees", "people", "staff"),
                  ("headcount", "employees", "people", "staff", "big"),
                  description="how many people a team or company has"),
    AttributeSpec("lead", ONE, ("lead", "leader", "led by", "owner", "owned by", "owns"),
                  ("lead", "leads", "owner", "owns", "led"),
                  description="who leads or owns something"),
    AttributeSpec("rate_limit", ONE, ("rate limit", "request limit", "throttle limit"),
                  ("rate", "limit", "throttle"), description="how many requests are allowed"),
    AttributeSpec("diet", ONE, ("diet",), ("diet", "eat"), description="the diet someone follows"),
    AttributeSpec("schedule", ONE, ("schedule", "scheduled for", "scheduled at", "runs at",
                                    "run time"),
                  ("schedule", "scheduled", "when"), description="when a job runs"),
    AttributeSpec("email", ONE, ("email", "email address", "e-mail", "e-mail address", "mail",
                                 "mail address"),
                  ("email", "mail"), description="someone's email address"),
    AttributeSpec("message_broker", ONE, ("message broker", "broker", "message queue"),
                  ("broker", "queue", "messaging"),
                  description="the message broker a system uses"),
    AttributeSpec("search_backend", ONE, ("search backend", "search engine"),
                  ("search",), description="the search engine a system uses"),
    # seed 002 lists "timeout" among event words ("we hit a timeout"); a configured timeout
    # ("the api-gw timeout is 30 seconds") is a property, so it is registered, as rate_limit
    AttributeSpec("timeout", ONE, ("timeout", "request timeout"), ("timeout",),
                  description="how long a call may take before it is cut off"),
    AttributeSpec("on_call", ONE, ("on-call", "on call", "on-call owner", "on call owner",
                                   "on_call_owner", "on-call owner for"),
                  ("call", "on-call"), description="who is on call"),
)

#: Attributes by key.
BY_KEY: dict[str, AttributeSpec] = {a.key: a for a in ATTRIBUTES}
#: Every built-in alias, folded, with its key ("works at" -> employer).
ALIAS_KEYS: dict[str, str] = {" ".join(alias.lower().replace("_", " ").split()): a.key
                              for a in ATTRIBUTES for alias in a.aliases}
#: The words by which a question asks for each built-in key.
QUESTION_WORDS: dict[str, tuple[str, ...]] = {a.key: a.question_words for a in ATTRIBUTES}
#: The keys a group's members hold with it.
MEMBER_HOLDS: tuple[str, ...] = tuple(a.key for a in ATTRIBUTES if a.member_holds)

#: Classes of values that say which attribute they fill: "runs on Postgres 14" is the
#: database, "switched from Vim to Helix" the editor. First word(s), lowercase.
VALUE_CLASSES: dict[str, tuple[str, ...]] = {
    "database": ("postgres", "postgresql", "mysql", "mariadb", "sqlite", "mongodb", "mongo",
                 "cassandra", "dynamodb", "oracle", "sql server", "cockroachdb", "clickhouse",
                 "aurora", "snowflake", "bigquery", "redshift", "couchdb", "neo4j",
                 "timescaledb", "supabase", "firestore", "spanner"),
    "ci_system": ("jenkins", "github actions", "gitlab ci", "circleci", "circle ci",
                  "travis", "travis ci", "buildkite", "teamcity", "drone", "azure pipelines",
                  "bamboo", "argo workflows", "tekton", "concourse", "bitrise", "codemagic",
                  "appveyor", "semaphore", "woodpecker"),
    "editor": ("vim", "neovim", "nvim", "helix", "emacs", "vs code", "vscode",
               "visual studio code", "sublime", "sublime text", "intellij", "pycharm", "zed",
               "nano", "atom", "webstorm", "goland", "cursor", "xcode"),
    "runtime": ("python", "node", "node.js", "nodejs", "java", "jdk", "openjdk", "go",
                "golang", "ruby", "php", ".net", "dotnet", "deno", "bun", "erlang",
                "elixir", "kotlin", "scala", "rust"),
    "monitoring": ("grafana", "prometheus", "datadog", "new relic", "sentry", "kibana",
                   "splunk", "honeycomb", "pagerduty", "opsgenie", "nagios", "zabbix"),
    "cloud": ("aws", "gcp", "google cloud", "azure", "hetzner", "digitalocean",
              "linode", "ovh", "oracle cloud", "cloudflare"),
    "os": ("linux", "ubuntu", "debian", "fedora", "arch", "macos", "windows", "centos",
           "alpine", "rhel"),
    "phone": ("iphone", "pixel", "galaxy", "oneplus", "fairphone", "xiaomi", "nokia"),
    "car": ("tesla", "toyota", "honda", "volkswagen", "vw", "bmw", "audi", "ford",
            "volvo", "renault", "peugeot", "fiat", "kia", "hyundai", "subaru", "skoda",
            "prius", "golf", "civic", "model 3", "model y", "polestar", "mazda"),
    "diet": ("vegan", "vegetarian", "pescatarian", "flexitarian", "keto", "paleo",
             "gluten-free", "omnivore", "carnivore", "halal", "kosher", "low-carb"),
    "message_broker": ("rabbitmq", "kafka", "apache kafka", "nats", "activemq", "pulsar",
                       "sqs", "amazon sqs", "redis streams", "pub/sub", "pubsub",
                       "google pub/sub", "zeromq", "mqtt", "kinesis", "event hubs"),
    "search_backend": ("elasticsearch", "opensearch", "solr", "meilisearch", "typesense",
                       "algolia", "vespa"),
    "speaks": ("english", "french", "german", "spanish", "portuguese", "italian",
               "dutch", "polish", "russian", "ukrainian", "japanese", "chinese",
               "mandarin", "cantonese", "korean", "arabic", "hindi", "turkish", "greek",
               "swedish", "norwegian", "danish", "finnish", "czech", "hungarian",
               "romanian", "hebrew", "vietnamese", "thai", "indonesian", "swahili",
               "catalan", "basque", "irish", "welsh", "bengali", "urdu", "farsi", "persian",
               "tagalog", "malay"),
}

#: Head nouns of roles: "the engineering manager", "a data analyst", "head of design".
ROLE_HEADS: frozenset[str] = frozenset({
    "manager", "engineer", "director", "lead", "head", "analyst", "designer", "developer",
    "scientist", "officer", "president", "ceo", "cto", "cfo", "coo", "cio", "cpo", "vp",
    "intern", "architect", "consultant", "founder", "cofounder", "co-founder", "chair",
    "chairman", "chairwoman", "chairperson", "coordinator", "administrator", "admin",
    "specialist", "nurse", "teacher", "doctor", "professor", "lecturer", "researcher",
    "editor-in-chief", "accountant", "lawyer", "attorney", "owner", "partner", "associate",
    "assistant", "secretary", "treasurer", "advisor", "adviser", "programmer", "tester",
    "writer", "journalist", "chef", "cook", "pilot", "mechanic", "technician", "librarian",
    "pharmacist", "therapist", "counselor", "counsellor", "recruiter", "strategist",
    "planner", "supervisor", "principal", "dean", "producer", "marketer", "salesperson",
    "representative", "rep", "sre", "devops", "maintainer", "steward", "captain",
    "superintendent", "inspector", "clerk", "cashier", "barista", "student", "postdoc",
    "trainee", "apprentice", "paralegal", "dentist", "surgeon", "veterinarian", "vet",
    "photographer", "illustrator", "musician", "artist", "coach", "trainer",
    "economist", "statistician", "physicist", "chemist", "biologist",
})

#: Words that make a noun phrase a system, service or thing an ops store is about.
SYSTEM_HEADS: frozenset[str] = frozenset({
    "service", "services", "cluster", "server", "database", "db", "api", "job", "pipeline",
    "queue", "app", "application", "site", "website", "bucket", "node", "host", "instance",
    "worker", "workers", "gateway", "proxy", "cache", "backend", "frontend", "dashboard",
    "repo", "repository", "stack", "platform", "environment", "staging", "production",
    "prod", "cron", "scheduler", "broker", "index", "endpoint", "deployment", "pod",
    "container", "vm", "machine", "box", "laptop", "bot", "integration", "system",
    "monolith", "microservice", "store", "warehouse", "lake", "tool", "runner", "agent",
    "wifi", "network", "router", "flag", "printer", "export", "backup", "import", "sync",
    "crawler", "batch",
})

#: Words that make a noun phrase a group: a team, a club, a company.
GROUP_HEADS: frozenset[str] = frozenset({
    "team", "squad", "group", "club", "department", "committee", "board", "band", "choir",
    "league", "guild", "chapter", "society", "association", "crew", "unit", "org",
    "organization", "organisation", "division", "office", "lab", "circle", "community",
    "union", "council", "orchestra", "troupe", "cohort", "rotation", "roster",
})

#: Event words (seed 002 §9): an attribute naming an event is refused -- one incident is
#: not a shared key that would supersede every other incident. ``rate_limit`` and
#: ``limitation`` name events in the seed's list ("we hit the rate limit"); a registered
#: property key (``rate_limit`` read off "the API rate limit is 100 requests per minute")
#: is not refused, because a person reviewed it in the registry.
EVENT_WORDS: frozenset[str] = frozenset({
    "cost", "costs", "outage", "outages", "incident", "incidents", "error", "errors",
    "failure", "failures", "recovery", "limitation", "limitations", "crash", "crashes",
    "timeout", "timeouts", "rate_limit", "bug", "bugs", "alert", "alerts", "spike",
    "spikes", "downtime", "regression", "exception", "exceptions", "page", "pages",
    "meeting", "meetings", "call", "calls", "conversation", "conversations", "visit",
    "visits", "trip", "trips",
})

#: Values that are the speaker's relation to someone, not a name: "my sister", "our kids".
RELATION_NOUNS: frozenset[str] = frozenset({
    "sister", "brother", "mother", "father", "mom", "mum", "dad", "parents", "wife",
    "husband", "partner", "son", "daughter", "kids", "children", "friend", "friends",
    "cousin", "aunt", "uncle", "grandma", "grandpa", "grandmother", "grandfather",
    "boyfriend", "girlfriend", "neighbour", "neighbor", "neighbours", "neighbors",
    "colleague", "colleagues", "boss", "roommate", "fiancé", "fiance", "fiancée", "family",
})


#: Classes told by a value's shape: 'eu-west-1' is a region, 'm5.large' an instance type.
SHAPED_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("region", re.compile(r"^(?:[a-z]{2}-[a-z]+-\d|[a-z]+-[a-z]+\d)$")),
    ("instance_type", re.compile(r"^[a-z]\d[a-z]*\.(?:nano|micro|small|medium|large|"
                                 r"\d*xlarge|metal)$")),
)


def shaped_class(value: str) -> str | None:
    """The class a value's shape alone names ('eu-west-1' -> 'region'), or None."""
    low = " ".join(value.lower().split())
    return next((cls for cls, shape in SHAPED_CLASSES if shape.match(low)), None)


def class_of(value: str) -> str | None:
    """The value class a value's first words name ('Postgres 16' -> 'database') or its shape
    names ('eu-west-1' -> 'region'), or None."""
    low = " ".join(value.lower().split())
    for cls, shape in SHAPED_CLASSES:
        if shape.match(low):
            return cls
    best: tuple[int, str] | None = None
    for cls, names in VALUE_CLASSES.items():
        for name in names:
            if low == name or low.startswith(name + " ") or low.startswith(name + "-"):
                if best is None or len(name) > best[0]:
                    best = (len(name), cls)
    return best[1] if best else None


def attribute_of_class(cls: str) -> str:
    """The attribute a value class fills: each class is named for its attribute."""
    return cls
