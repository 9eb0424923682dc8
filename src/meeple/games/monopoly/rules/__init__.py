"""The rules of the Monopoly family, one module per rule (the rulebooks' table of contents).

- :mod:`.money`: paying, being paid, the bank, net worth
- :mod:`.movement`: dice, doubles, moving, the GO salary
- :mod:`.landing`: what each kind of square does
- :mod:`.rent`: rent for streets, railroads and utilities
- :mod:`.cards`: drawing and resolving Chance and Community Chest style cards
- :mod:`.jail`: going to jail and the three ways out
- :mod:`.buying`: buy at the printed price or decline
- :mod:`.auction`: auctions of deeds and of short buildings
- :mod:`.buildings`: building and selling houses and hotels, evenly, from the bank's stock
- :mod:`.mortgage`: mortgaging and lifting mortgages
- :mod:`.trade`: trade offers between players
- :mod:`.bankruptcy`: debts, raising money, bankruptcy
- :mod:`.turns`: the turn, the any-time windows, the end of the game
"""
