"""Ollama client failures, translated into FactStoreErrors that say what to do.

The embedder and the extractor call the same client and fail the same ways; one translator
keeps their messages consistent.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from factstore.errors import FactStoreError


@contextmanager
def ollama_errors(error: type[FactStoreError], *, host: str, model: str, timeout: float,
                  doing: str, answer: str, timeout_advice: str,
                  wrong_model_advice: str | None = None) -> Iterator[None]:
    """Run an Ollama call; re-raise its failures as ``error`` with advice.

    ``doing`` completes "refused to ..." ("embed", "chat"); ``answer`` names the response
    kind the client failed to parse ("an embedding response").
    """
    import httpx
    import ollama

    try:
        yield
    except ollama.ResponseError as exc:
        status = getattr(exc, "status_code", -1)
        message = str(getattr(exc, "error", exc))
        if status == 404 or "not found" in message.lower():
            advice = f"pull the model with `ollama pull {model}`"
        elif wrong_model_advice and "does not support" in message.lower():
            advice = wrong_model_advice
        else:
            advice = "check the model name and the server log"
        raise error(f"Ollama at {host} refused to {doing} with {model!r} ({status}): "
                    f"{message}; {advice}") from exc
    except ConnectionError as exc:
        # The client turns httpx.ConnectError into a bare ConnectionError.
        raise error(f"cannot reach Ollama at {host}: {exc}; start it with `ollama serve`, or "
                    "point OLLAMA_HOST (or host=...) at a running server") from exc
    except httpx.TimeoutException as exc:
        raise error(f"Ollama at {host} did not answer within {timeout}s with {model!r}; "
                    f"{timeout_advice}") from exc
    except httpx.TransportError as exc:
        # The client only wraps ConnectError; other transport failures arrive raw.
        raise error(f"talking to Ollama at {host} failed: {exc}; check the server is "
                    "healthy") from exc
    except FactStoreError:
        raise
    except Exception as exc:  # a malformed answer fails pydantic validation in the client
        raise error(f"Ollama at {host} sent an answer for {model!r} that is not {answer}: "
                    f"{exc}") from exc
