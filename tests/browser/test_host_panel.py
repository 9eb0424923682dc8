"""The host's panel in Chromium (docs/SERVER.md, "POST /reissue" and "POST /moderate"): the host
mutes a person in the chat, removes them from it (what they said goes from every page) and lets
them back, and gives their seat a new link: the page with the old one watches, the new link
opens the seat."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_seats import lobby_game

PHONE = {"width": 390, "height": 844}


def test_the_host_moderates_the_chat_and_gives_a_new_link(browser: Any, server: str) -> None:
    host_ctx = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900})
    host = host_ctx.new_page()
    gid = lobby_game(host, {2: "human", 3: "bot:random", 4: "bot:random"})
    bob_link = host.locator("[data-testid=seat-link-1] input").input_value()
    host.locator("#play-mine").click()
    bob_ctx = browser.new_context(base_url=server, viewport=PHONE, is_mobile=True)
    bob = bob_ctx.new_page()
    bob.goto(bob_link)
    expect(bob.locator("#who")).to_have_text("You are Bob")

    bob.locator("#chat-text").fill("buy my houses")
    bob.locator("#chat-send").click()
    expect(host.locator("#chat")).to_contain_text("buy my houses")

    host.locator("#host-panel summary").click()
    host.locator("#host-panel button[data-chat='muted'][data-chat-seat='1']").click()
    expect(bob.locator("#chat-text")).to_be_disabled()
    expect(bob.locator("#chat-text")).to_have_attribute(
        "placeholder", "The host muted you in this chat"
    )
    expect(host.locator("#host-panel")).to_contain_text("(muted)")
    expect(host.locator("#chat")).to_contain_text("buy my houses")  # muted: what was said stays
    host.locator("#host-panel button[data-chat='removed'][data-chat-seat='1']").click()
    expect(host.locator("#chat")).not_to_contain_text("buy my houses")
    expect(bob.locator("#chat")).not_to_contain_text("buy my houses")
    screenshot(host, "host-panel")
    host.locator("#host-panel button[data-chat='allowed'][data-chat-seat='1']").click()
    expect(bob.locator("#chat-text")).to_be_enabled()
    expect(bob.locator("#chat")).to_contain_text("buy my houses")

    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("#host-panel button[data-new-link='1']").click()
    new_link = host.locator("#new-link")
    expect(new_link).to_have_value(re.compile(rf"^{server}/play/{gid}#token=[\w-]+$"))
    expect(bob.locator("#who")).to_have_text("Spectating")
    expect(bob.locator("#chat-form")).to_be_hidden()
    screenshot(bob, "revoked-phone")
    bob.goto(new_link.input_value())  # over the page with the old one: it loads again
    expect(bob.locator("#who")).to_have_text("You are Bob")
    host_ctx.close()
    bob_ctx.close()
