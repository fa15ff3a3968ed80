# round with decimals as a method, an in-place method and a function: each form's own words for a decimals that is not an int, an unknown keyword or a positional argument, and a 0-d integer tensor taken as an int (written for this test: code in the shape people bring, no adaptation).
import torch
x = torch.tensor([1.2345, -2.3456, 0.5, 1.5])
print(x.round(), x.round(decimals=2), torch.round(x, decimals=1), x.round(decimals=-1))
print(x.clone().round_(decimals=3), x.round(decimals=torch.tensor(2)), torch.round(x, decimals=torch.tensor(1)))
print(x.double().round(decimals=2), torch.tensor([12345.0]).round(decimals=-2))
for kw in ({"decimals": 2.0}, {"decimals": None}, {"decimals": "2"}, {"foo": 1}, {"decimals": True},
           {"decimals": 2, "foo": 1}, {"foo": 1, "decimals": 2}, {"a": 1, "b": 2.0, "decimals": 2},
           {"decimals": torch.tensor(1.0)}, {"decimals": torch.tensor([1, 2])}):
    for f in (lambda: x.round(**kw), lambda: torch.round(x, **kw), lambda: x.clone().round_(**kw)):
        try:
            print(f())
        except TypeError as e:
            print(str(e).splitlines()[0])
for f in (lambda: x.round(2), lambda: x.round_(2)):
    try:
        print(f())
    except TypeError as e:
        print(str(e).splitlines()[0])
