"""The rules of the Monopoly family, one module per rule (the rulebooks' table of contents).

- :mod:`.money`: paying, being paid, the bank, net worth
- :mod:`.holdings`: who holds what (the board's only writers) and the tables kept of it
- :mod:`.table`: the seats still playing, in turn order, and the end of the game
- :mod:`.movement`: dice, doubles, moving, the GO salary
- :mod:`.landing`: what each kind of square does
- :mod:`.rent`: rent for streets, railroads and utilities
- :mod:`.cards`: drawing and resolving Chance and Community Chest style cards
- :mod:`.jail`: going to jail and the three ways out
- :mod:`.buying`: buy at the printed price or decline
- :mod:`.auction`: auctions of deeds and of short buildings
- :mod:`.shortage`, :mod:`.placing`: a building shortage, and placing a building won at auction
- :mod:`.buildings`: building and selling houses and hotels, evenly, from the bank's stock
- :mod:`.mortgage`: mortgaging and lifting mortgages
- :mod:`.trade`: trade offers between players
- :mod:`.bankruptcy`: charges that become debts, raising money, bankruptcy
- :mod:`.turns`: the turn, the any-time windows, the ranking at the end

Layers, each importing only those below it: :mod:`.money`, :mod:`.holdings`, :mod:`.table`,
:mod:`.start` and :mod:`.rulesets` at the bottom; :mod:`.movement`, :mod:`.rent`,
:mod:`.snowflake` and :mod:`.buildings` on them; then :mod:`.placing`, :mod:`.auction` and
:mod:`.shortage`, in that order. The rules of the turn's flow above them (:mod:`.anytime`,
:mod:`.bankruptcy`, :mod:`.buying`, :mod:`.cards`, :mod:`.jail`, :mod:`.landing`,
:mod:`.mortgage`, :mod:`.trade`, :mod:`.turns`) still call each other: a charge opens a debt
whose answers are any-time actions, and landing draws a card that moves and lands.
"""
