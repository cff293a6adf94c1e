#!/usr/bin/env python3
"""Swiss QR-bills for the content tests (Tests/Fixtures/qrbill): made with PyPI's qrbill, as SVG
and as PDF (the SVG converted with rsvg-convert, as a printer driver would), every reference type
(QRR, SCOR, NON), no amount, a debtor, an alternative scheme; and broken variants (a bad IBAN, a
bad QRR check digit, a wrong version) whose payment part is the valid bill's with one line
changed (as SVG only). Each bill's IBAN and reference are checked with python-stdnum and schwifty (independent
oracles) and its expected fields written to expected.json.

usage: pip install qrbill python-stdnum schwifty; scripts/make-qrbill-fixtures.py [OUT_DIR]
"""
import json
import os
import subprocess
import sys

from qrbill import QRBill
from schwifty import IBAN
from stdnum import iso11649
from stdnum.ch import esr

CREDITOR = {"name": "Robert Schneider AG", "street": "Rue du Lac", "house_num": "1268", "pcode": "2501", "city": "Biel", "country": "CH"}
DEBTOR = {"name": "Pia-Maria Rutschmann-Schnyder", "street": "Grosse Marktgasse", "house_num": "28", "pcode": "9400", "city": "Rorschach",
          "country": "CH"}

BILLS = {
    # QR-IBAN with a QR reference, an amount and a debtor (SIX's sample data).
    "qrr": dict(account="CH44 3199 9123 0008 8901 2", amount="1949.75", currency="CHF", debtor=DEBTOR,
                reference_number="210000000003139471430009017", additional_information="Order of 15 June 2020"),
    # IBAN with a creditor reference (ISO 11649), in euros.
    "scor": dict(account="CH58 0079 1123 0008 8901 2", amount="199.95", currency="EUR", debtor=DEBTOR,
                 reference_number="RF18539007547034"),
    # IBAN without reference and without amount (the payer fills it in), no debtor.
    "non-no-amount": dict(account="CH58 0079 1123 0008 8901 2", currency="CHF"),
    # An alternative scheme and billing information.
    "alt-scheme": dict(account="CH58 0079 1123 0008 8901 2", amount="50.00", currency="CHF", debtor=DEBTOR,
                       billing_information="//S1/10/10201409/11/200701/20/140.000-53/30/102673831/31/200615/32/7.7/33/7.7:139.40/40/0:30",
                       alt_procs=["eBill/B/41010560425610173"]),
}

# Broken variants: the line (0-based) of the valid bill's payload replaced.
BROKEN = {
    "broken-iban": ("qrr", 3, "CH4431999123000889013", "check digits"),
    "broken-qrr": ("qrr", 28, "210000000003139471430009018", "check digit"),
    "broken-version": ("qrr", 1, "0100", "version"),
}


def oracle(account, reference):
    """The IBAN and reference checked by schwifty and python-stdnum, not by the tool under test."""
    IBAN(account)  # raises on a bad IBAN
    if reference and reference.startswith("RF"):
        iso11649.validate(reference)
    elif reference:
        esr.validate(reference)


def write(bill, name, out, data=None, pdf=True):
    svg = os.path.join(out, name + ".svg")
    if data is not None:
        bill.qr_data = lambda: data
    bill.as_svg(svg)
    if pdf:
        subprocess.run(["rsvg-convert", "-f", "pdf", "-o", os.path.join(out, name + ".pdf"), svg], check=True)


def main(out):
    os.makedirs(out, exist_ok=True)
    expected = {}
    for name, args in BILLS.items():
        oracle(args["account"], args.get("reference_number"))
        bill = QRBill(creditor=CREDITOR, language="en", **args)
        write(bill, name, out)
        ref = args.get("reference_number")
        expected[name] = {
            "iban": args["account"].replace(" ", ""), "amount": args.get("amount"), "currency": args["currency"],
            "reference_type": "QRR" if ref and not ref.startswith("RF") else ("SCOR" if ref else "NON"),
            "debtor": "debtor" in args, "alternative_schemes": args.get("alt_procs", []), "valid": True,
            "payload": bill.qr_data(),
        }
    for name, (base, line, value, problem) in BROKEN.items():
        bill = QRBill(creditor=CREDITOR, language="en", **BILLS[base])
        lines = bill.qr_data().split("\r\n")
        lines[line] = value
        data = "\r\n".join(lines)
        write(bill, name, out, data, pdf=False)
        expected[name] = {"valid": False, "problem": problem, "payload": data}
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "Tests/Fixtures/qrbill")
