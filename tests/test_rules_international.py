"""Identifiers outside Taiwan (HIPAA): US SSNs, payment cards, IBANs, IP addresses, North American and
other international phone numbers, English-style street addresses; each with its own check, and the
look-alikes it must leave."""
import ipaddress
import re

import pytest

from spacy_deid.rules.validators import iban_ok, luhn_ok, us_ssn_ok
from spacy_deid.surrogates import Resynthesizer

from test_rules import found, nlp  # noqa: F401 (nlp is the rules pipeline fixture)
from test_surrogates_helpers import KEY, make_doc


@pytest.mark.parametrize("text,expected", [
    ("SSN 123-45-6789 on file.", [("123-45-6789", "ID_NUMBER")]),
    ("Her number is 219-09-9999.", [("219-09-9999", "ID_NUMBER")]),
    ("SSN: 012-34-5678", [("012-34-5678", "ID_NUMBER")]),
    ("苗栗住家 037-46-7966", [("苗栗", "CITY"), ("037-46-7966", "PHONE")]),  # a Taiwan landline of the same shape
    ("Social security number: 219 09 9999.", [("219 09 9999", "ID_NUMBER")]),
    ("ssn 219099999", [("219099999", "ID_NUMBER")]),
    ("Paid with 4111 1111 1111 1111 yesterday.", [("4111 1111 1111 1111", "ID_NUMBER")]),
    ("card 5500-0000-0000-0004, amex 3782 822463 10005", [("5500-0000-0000-0004", "ID_NUMBER"),
                                                         ("3782 822463 10005", "ID_NUMBER")]),
    ("Visa 4012888888881881.", [("4012888888881881", "ID_NUMBER")]),
    ("IBAN GB82 WEST 1234 5698 7654 32.", [("GB82 WEST 1234 5698 7654 32", "ID_NUMBER")]),
    ("轉帳至 DE89370400440532013000 帳戶", [("DE89370400440532013000", "ID_NUMBER")]),
    ("Logged in from 192.168.1.10 at night.", [("192.168.1.10", "URL")]),
    ("IP address 1.2.3.4 was blocked", [("1.2.3.4", "URL")]),
    ("IPv6 2001:db8::8a2e:370:7334 and fe80:0:0:0:202:b3ff:fe1e:8329", [
        ("2001:db8::8a2e:370:7334", "URL"), ("fe80:0:0:0:202:b3ff:fe1e:8329", "URL")]),
    ("Call (555) 234-5678 or 555.234.5678.", [("(555) 234-5678", "PHONE"), ("555.234.5678", "PHONE")]),
    # an exchange no dialled number has (0 or 1 first), between hyphens: a made-up or mistyped number
    ("work# 555-104-2231, cell (555) 190-4417", [("555-104-2231", "PHONE"), ("(555) 190-4417", "PHONE")]),
    ("Daughter in Ohio: +1 614-555-0199; son in London +44 20 7946 0958.", [
        ("Ohio", "STATE"), ("+1 614-555-0199", "PHONE"), ("London", "CITY"), ("+44 20 7946 0958", "PHONE")]),
    ("日本的電話 +81-3-1234-5678", [("日本", "COUNTRY"), ("+81-3-1234-5678", "PHONE")]),
])
def test_identifiers_are_found(nlp, text, expected):
    assert found(nlp, text) == expected


@pytest.mark.parametrize("text", [
    "SSN 000-12-3456, 666-12-3456, 912-34-5678, 123-00-4567, 123-45-0000.",  # never issued
    "Order 123456789 sent.",  # nine digits without an SSN label
    "Accession 4111111111111112 (fails Luhn); barcode 1234567890123452.",  # no card prefix / bad check
    "Ref GB82WEST12345698765433 (bad check digits).",
    "Firmware version 1.2.3.4 installed; 999.1.1.1; 256.0.0.1 is not an address.",
    "Times 14:30:00 and 08:15, ratio 1:2:3.",
    "Dates 2021-12-25, 110.12.25, 2021/12/25; BP 120/80; MRN 20211225.",
    "Taiwan 0912-345-678, (02)2312-3456, 02-2312-3456.",  # Taiwan numbers are PHONE by their own rules
    "Code +12",  # too short for a phone number
])
def test_look_alikes_are_left(nlp, text):
    found_labels = {label for _, label in found(nlp, text)}
    assert not found_labels & {"ID_NUMBER", "URL"} or "Taiwan" in text
    if "Taiwan" in text:
        assert [t for t, _ in found(nlp, text)] == ["Taiwan", "0912-345-678", "(02)2312-3456", "02-2312-3456"]
    else:
        assert "PHONE" not in found_labels


def test_checks():
    assert us_ssn_ok("123456789") and not us_ssn_ok("666123456") and not us_ssn_ok("900123456")
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert luhn_ok("378282246310005") and luhn_ok("0")
    assert iban_ok("GB82 WEST 1234 5698 7654 32") and iban_ok("DE89370400440532013000")
    assert not iban_ok("GB82WEST12345698765433") and not iban_ok("GB82") and not iban_ok("1234567890123456")


@pytest.mark.parametrize("address", ["192.168.1.10", "10.0.0.1", "2001:db8::8a2e:370:7334", "FE80::1"])
def test_an_address_becomes_another_address_of_its_kind(address):
    engine = Resynthesizer(key=KEY)
    doc = engine(make_doc(f"from «{address}|URL» today"))
    surrogate = doc._.replacements[0]["surrogate"]
    assert surrogate != address
    new, old = ipaddress.ip_address(surrogate), ipaddress.ip_address(address)
    assert new.version == old.version
    if old.version == 6:
        assert re.sub(r"[0-9a-fA-F]", "h", surrogate) == re.sub(r"[0-9a-fA-F]", "h", address)
        assert (surrogate.upper() == surrogate) == (address.upper() == address)
    assert Resynthesizer(key=KEY)(make_doc(f"from «{address}|URL» today"))._.deid_text == doc._.deid_text


@pytest.mark.parametrize("text,expected", [
    ("Lives at 123 Main Street, Springfield.", [("123", "NUMBER"), ("Main Street", "STREET")]),
    ("Moved to 4B West 57th St. last year.", [("4B", "NUMBER"), ("West 57th St.", "STREET")]),
    ("Daughter: 1600 Pennsylvania Avenue NW.", [("1600", "NUMBER"), ("Pennsylvania Avenue", "STREET")]),
    ("He lives on 55 Sunset Blvd. now", [("55", "NUMBER"), ("Sunset Blvd", "STREET")]),
    ("住在美國 742 Evergreen Terrace 的兒子", [("美國", "COUNTRY"), ("742", "NUMBER"), ("Evergreen Terrace", "STREET")]),
])
def test_english_street_addresses_are_number_and_street(nlp, text, expected):
    assert found(nlp, text) == expected


@pytest.mark.parametrize("text", [
    "BP 120 Dr Lin saw him.", "Took 2 tablets on the street.", "Main Street clinic", "Room 12 ward round",
    "No. 27, Sec. 3, Zhongxiao E. Rd., Taipei",  # a Taiwan address in English is the NER's
])
def test_not_english_street_addresses(nlp, text):
    assert not {label for _, label in found(nlp, text)} & {"NUMBER", "STREET"}
