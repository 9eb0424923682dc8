"""House rules in Chromium (issue 20; docs/SERVER.md, "House rules"): the lobby offers the
chosen edition's rule options, folded away and at the rulebook's values; a changed one is sent
with the new game, and the game page shows it in force."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import screenshot


def open_house_rules(page: Any) -> Any:
    rules = page.locator("#house-rules")
    expect(rules).to_be_visible()
    expect(rules).not_to_have_attribute("open", "")  # folded away until asked for
    rules.locator("summary").click()
    return rules


def test_a_house_rule_set_in_the_lobby_is_in_force_in_the_game(page: Any, server: str) -> None:
    page.goto("/")
    page.get_by_label("Seat 1 name").fill("Ann")
    rules = open_house_rules(page)
    expect(rules.locator("summary")).to_contain_text("as the rulebook says")
    # Every rule at classic's value.
    expect(page.get_by_label("Free Parking money")).not_to_be_checked()
    expect(page.get_by_label("Auctions")).to_be_checked()
    expect(page.get_by_label("Starting money")).to_have_value("1500")
    expect(page.get_by_label("Utility rent dice")).to_have_value("move")
    page.get_by_label("Free Parking money").check()
    page.get_by_label("Utility rent dice").select_option("one_die")
    expect(rules.locator("summary")).to_contain_text("2 changed: Free Parking money")
    screenshot(page, "lobby-house-rules-desktop")

    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.get_by_role("button", name="Create the game").click()
    assert sent.value.post_data_json["rules"] == {
        "free_parking_money": True,
        "utility_rent_dice": "one_die",
    }
    expect(page.locator("#created")).to_be_visible()
    page.locator("#play-mine").click()
    expect(page.locator("#who")).to_have_text("You are Ann")
    shown = page.locator("#house-rules")
    expect(shown).to_be_visible()
    expect(shown).to_contain_text("Free Parking money: on (normally off)")
    expect(shown).to_contain_text("Utility rent dice: a fresh roll of one die")
    # The board keeps the pot in the middle, and the rules in words say how it works.
    expect(page.locator("#board .bank-line").last).to_contain_text("Free Parking pot: $")
    page.locator("#rules summary").click()
    expect(page.locator("#rules-list")).to_contain_text("Free Parking money: taxes, fines")


def test_the_lobby_follows_the_edition_and_a_bad_number_holds_the_form(
    page: Any, server: str
) -> None:
    page.goto("/")
    open_house_rules(page)
    page.get_by_label("Starting money").fill("2000000")  # above the option's 1,000,000
    page.get_by_role("button", name="Create the game").click()
    assert page.get_by_label("Starting money").evaluate("e => !e.validity.valid")
    expect(page.locator("#created")).to_be_hidden()  # nothing was sent
    page.get_by_label("Starting money").fill("2500")
    expect(page.locator("#house-rules summary")).to_contain_text("1 changed: Starting money")

    # My First Monopoly: its own starting money, and no utility dice on its board; the change
    # of starting money carries over (a rule both editions have).
    page.get_by_label("Game", exact=True).select_option("my-first-monopoly-1")
    expect(page.get_by_label("Starting money")).to_have_value("2500")
    expect(page.get_by_label("Utility rent dice")).to_have_count(0)
    page.get_by_role("button", name="Back to the rulebook").click()
    expect(page.get_by_label("Starting money")).to_have_value("10")
    expect(page.locator("#house-rules summary")).to_contain_text("as the rulebook says")
    # Monopolis offers who starts alone; the classic rules are gone with the edition.
    page.get_by_label("Game", exact=True).select_option("monopolis")
    expect(page.get_by_label("Who starts")).to_have_value("random")
    expect(page.get_by_label("Starting money")).to_have_count(0)


def test_house_rules_fit_a_phone(phone: Any, server: str) -> None:
    phone.goto("/")
    phone.get_by_label("Seat 1 name").fill("Ann")
    open_house_rules(phone)
    phone.get_by_label("Owners must ask for rent").check()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the lobby is {width} px wide on a 390 px phone"
    for name in ("Owners must ask for rent", "Utility rent dice", "Starting money"):
        box = phone.get_by_label(name).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, name
    screenshot(phone, "lobby-house-rules-phone")
    phone.get_by_role("button", name="Create the game").click()
    expect(phone.locator("#created")).to_be_visible()
    phone.locator("#play-mine").click()
    expect(phone.locator("#house-rules")).to_contain_text(
        re.compile(r"Owners must ask for rent: on \(normally off\)")
    )
