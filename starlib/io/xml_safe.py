"""XML as starlib writes and reads it: text that XML 1.0 can hold, and the guard against entities.

XML 1.0 cannot hold the control characters U+0000-U+001F other than tab, LF and CR, nor U+FFFE, U+FFFF or a lone
surrogate (U+D800-U+DFFF), not even as a character reference: a parser refuses the whole file. Every XML writer of
starlib (GraphML in :mod:`starlib.io.exports`, MSCCL in :mod:`starlib.io.msccl`) writes text through the helpers
here, so every file it writes parses (docs/formats.md §6.4 and §8.3):

* :func:`xml_text` and :func:`xml_attr`: descriptive text (a network's name, an algorithm's name, a host's name)
  with each such character written visibly as Python writes it (``\\x07``, ``\\ufffe``, ``\\ud800``), then ``&``,
  ``<``, ``>`` (and in an attribute ``"``, tab, LF and CR) as references;
* :func:`xml_json`: a value as JSON text (a GraphML label, ``params``, ``roots``), where JSON's own escapes
  (``\\u0001``) keep every character, so starlib's reader decodes the label exactly;
* :func:`xml_holds`: whether a text can be written as it is (GraphML node ids: a network whose ids cannot is written
  with the ids ``0`` .. ``n-1`` and its labels, as JSON text, beside them).

:func:`refuse_entities` is the guard of every XML reader (GraphML in :mod:`starlib.io.readers`, MSCCL in
:mod:`starlib.io.msccl_replay`): it runs expat over the prolog, in the file's own encoding as the parser decodes
it, and refuses a DTD that declares an entity (general or parameter, internal or external) before anything is
expanded; it stops at the root element, so a large file costs only its prolog.

Example
-------
>>> xml_text("ring\\x07 <1>"), xml_attr('a "b"\\tc'), xml_json(["\\x01", "\\ufffe"]), xml_holds("a\\x01")
('ring\\\\x07 &lt;1&gt;', '"a &quot;b&quot;&#9;c"', '["\\\\u0001","\\\\ufffe"]', False)
"""

from __future__ import annotations

import re
import xml.parsers.expat as expat
from typing import Any

import orjson

from ..validation import printable, shorten

__all__ = ["XML_RULE", "xml_holds", "xml_text", "xml_attr", "xml_json", "declared_encoding", "refuse_entities"]

#: What XML 1.0 cannot hold, as messages state it.
XML_RULE = ("XML 1.0 cannot hold U+0000-U+001F except tab, LF and CR, nor U+FFFE, U+FFFF or a lone surrogate "
            "(U+D800-U+DFFF)")

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_TEXT = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ATTR = {**_TEXT, '"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
_TEXT_SPECIAL = re.compile("[&<>]")
_ATTR_SPECIAL = re.compile('[&<>"\t\n\r]')


def xml_holds(text: str) -> bool:
    """Whether XML 1.0 can hold ``text`` (:data:`XML_RULE`), as it is or escaped.

    >>> xml_holds("g0r0\\t"), xml_holds("g0\\x1br0"), xml_holds("\\uffff")
    (True, False, False)
    """
    return _FORBIDDEN.search(text) is None


def _visible(text: str) -> str:
    """Each character XML 1.0 cannot hold as Python writes it in a string (``\\x07``, ``\\ufffe``)."""
    return _FORBIDDEN.sub(lambda m: repr(m.group(0))[1:-1], text)


def xml_text(text: str) -> str:
    """Descriptive text as XML character data: what XML 1.0 cannot hold written visibly, ``& < >`` escaped.

    Parameters
    ----------
    text : str
        Any text (a network's name).

    Returns
    -------
    str
        Text that every XML parser reads: a character XML cannot hold appears as its escape (``\\x07``), visible
        and not the character itself; every other character is kept.

    Example
    -------
    >>> xml_text("a\\x07 & b")
    'a\\\\x07 &amp; b'
    """
    return _TEXT_SPECIAL.sub(lambda m: _TEXT[m.group(0)], _visible(text))


def xml_attr(text: str) -> str:
    """Descriptive text as a double-quoted XML attribute value (the quotes included), as :func:`xml_text` writes it.

    ``"``, and tab, LF and CR (which a parser would read as spaces) are written as references, so the value reads
    back as the text (with its forbidden characters written visibly).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        ``"..."``, ready to follow ``name=``.

    Example
    -------
    >>> xml_attr('say "hi"\\n\\x01')
    '"say &quot;hi&quot;&#10;\\\\x01"'
    """
    return '"' + _ATTR_SPECIAL.sub(lambda m: _ATTR[m.group(0)], _visible(text)) + '"'


def xml_json(value: Any) -> str:
    """A JSON value as XML character data: its JSON text, which any JSON reader decodes back to the value.

    orjson writes control characters as ``\\u0001``; U+FFFE and U+FFFF, which JSON keeps raw, are written
    ``\\ufffe`` and ``\\uffff`` (JSON escapes: the same value); then ``& < >`` are escaped for XML.

    Parameters
    ----------
    value : Any
        A value orjson writes (a label, ``params``, ``roots``).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        For a value JSON cannot hold (a string with a lone surrogate), naming it and the rule.

    Example
    -------
    >>> xml_json({"name": "a\\x01<b>"})
    '{"name":"a\\\\u0001&lt;b&gt;"}'
    """
    try:
        text = orjson.dumps(value).decode()
    except TypeError as exc:
        raise ValueError(f"{shorten(value, 60)} cannot be written as JSON text ({exc})") from None
    if "\ufffe" in text or "\uffff" in text:
        text = text.replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")
    return _TEXT_SPECIAL.sub(lambda m: _TEXT[m.group(0)], text)


# -- reading: the guard ------------------------------------------------------------------------------------------------

class _Root(Exception):
    """The root element began: the prolog (where a DTD must stand) is over."""


class _Entity(Exception):
    """A DTD declares an entity."""


_DECLARED = re.compile(rb"""^(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff)?\s*<\?xml\s[^>]*?"""
                       rb"""encoding\s*=\s*["']([^"'>]{0,60})["']""")
_UTF32 = (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00")


def declared_encoding(data: bytes | str) -> str | None:
    """The encoding an XML declaration names, lower case (read in UTF-8, UTF-16 or UTF-32 alike), or None.

    >>> declared_encoding("<?xml version='1.0' encoding='ISO-8859-1'?>".encode("utf-16")), declared_encoding(b"<a/>")
    ('iso-8859-1', None)
    """
    head = data[:400].encode("utf-8", "replace") if isinstance(data, str) else data[:400]
    found = _DECLARED.match(head.replace(b"\x00", b""))
    return found.group(1).decode("ascii", "replace").lower() if found else None


def refuse_entities(data: bytes | str, source: str, what: str) -> None:
    """Refuse an XML document whose DTD declares an entity, as the parser reads the document, before any expansion.

    expat reads the prolog in the document's encoding (a byte-order mark, the XML declaration), so neither a
    comment or processing instruction before the DOCTYPE, nor UTF-16, hides a declaration; every ``<!ENTITY``
    (general or parameter, internal, external or unparsed) is refused when it is declared, and parsing stops at the
    root element. A DOCTYPE without entities passes. A document that is not well-formed passes too: its parser
    says so afterwards, with its own words.

    Parameters
    ----------
    data : bytes or str
        The document.
    source : str
        How messages name the document (``path='net.graphml'``).
    what : str
        The format, for messages (``GraphML``).

    Raises
    ------
    ValueError
        One line naming the document: the line and column of an entity declaration and the entity; an encoding
        expat cannot read (the name the declaration gives); a UTF-32 byte-order mark.

    Example
    -------
    >>> refuse_entities(b'<!-- <graphml> --><!DOCTYPE g [<!ENTITY x "y">]><g>&x;</g>', "doc", "GraphML")
    Traceback (most recent call last):
    ...
    ValueError: doc: line 1, column 43: the file declares an XML entity (<!ENTITY ...>); starlib does not expand \
entities in GraphML (no external files, no expansion): remove the DTD, which declares 'x'
    """
    if isinstance(data, bytes) and data.startswith(_UTF32):
        raise ValueError(f"{source}: starts with a UTF-32 byte-order mark; the XML parser (expat) reads UTF-8, UTF-16 "
                         f"and single-byte encodings: save the {what} file as UTF-8")
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def entity(name: str, is_parameter: bool, *_: Any) -> None:
        raise _Entity(f"line {parser.CurrentLineNumber}, column {parser.CurrentColumnNumber + 1}",
                      ("%" if is_parameter else "") + name)

    def root(*_: Any) -> None:
        raise _Root

    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = lambda name, *_: entity(name, False)
    parser.StartElementHandler = root
    try:
        parser.Parse(data, True)
    except _Root:
        return
    except UnicodeError:  # a str that is not Unicode text (a lone surrogate): the format's parser names it
        return
    except _Entity as exc:
        where, name = exc.args
        raise ValueError(f"{source}: {where}: the file declares an XML entity (<!ENTITY ...>); starlib does not "
                         f"expand entities in {what} (no external files, no expansion): remove the DTD, which "
                         f"declares {shorten(name, 40)}") from None
    except (LookupError, ValueError) as exc:  # expat's unknown-encoding handler: no such codec, or a multi-byte one
        named = shorten(declared_encoding(data) or "?", 60)
        raise ValueError(f"{source}: the XML declaration names the encoding {named}, which the XML parser (expat) "
                         f"cannot read ({printable(exc, 60)}): it reads "
                         f"UTF-8, UTF-16 and single-byte encodings such as ISO-8859-1") from None
    except expat.ExpatError:
        return  # not well-formed: the format's parser names the fault
