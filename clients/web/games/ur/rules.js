// rules.js: the rules page of the Royal Game of Ur in English, Spanish and Portuguese, written
// for people from protocol/games/ur/README.md (binding) and the Spanish seed text. The markup is the
// light one ../../rules.js draws. Cells are named as on the board.

const en = `# How to play the Royal Game of Ur

A race game for two, played in Mesopotamia more than 4,000 years ago. Each player has seven pieces; the first to
take all seven round their route and off the board wins.

## The board
Twenty cells in three rows: **L** (Light's outer row), **M** (the middle row, shared) and **K** (Dark's outer row),
numbered 1 to 8 from the exit end. Five cells carry a **rosette**: L1, K1, M4, L7 and K7.

## The dice
Three four-sided dice, each with two marked tips. Throw them and count the marked tips that point up:

| marked tips up | you move | then |
| --- | --- | --- |
| 3 | 5 | throw again |
| 0 | 4 | throw again |
| 2 | 1 | the turn passes |
| 1 | 0 | the turn passes |

## The route
Your pieces enter on your own outer row and run from cell 4 to cell 1 (squares 1 to 4), up the middle row from
M1 to M7, round the far end through the other side's cells 7 and 8 to M8, then through your own cells 8 and 7
and back down the middle row from M7 to M1. At M8 (square 14) a piece is **flipped**: from there it travels back
down (the board shows it with a ring and ↩). M1 is the exit square.

## A turn
- Throw, then make **one** action with the value, if you can; if nothing is possible the throw is lost.
- **Enter**: with a 1 a waiting piece enters on your square 1; with a 5 it enters on square 5 (M1).
- **Move**: a piece moves forward exactly the value. It may not go past the exit square.
- **Bear off**: with a 4, every piece of yours on the exit square M1 leaves the board at once.
- After a 4 or a 5 you throw again, even if the throw was lost.

## Landing
- Your own pieces may share a cell.
- Landing on a cell held by opponent pieces **travelling the same way** sends them all back to wait; pieces
  travelling the other way are not touched and share the cell.
- **Safe cells**: the five rosettes and M1. Nobody is captured there.
- **Rosette bonus**: ending a move or an entry on a rosette lets you enter one more piece on square 1 at once,
  or skip it, if you still have a piece waiting.

## Winning
The first player to bear off all seven pieces wins. Resigning, or abandoning the match, gives the win to the other
side.

## In this client
- Click (or tap) a glowing piece, then the cell where it lands; entries and bearing off are one click on the
  badge under the board or on the buttons.
- The option "Roll the dice for me" throws for you whenever throwing is your only choice; when only one move is
  possible the client says so and plays it (you can turn that off in the room).
- Pointing at a glowing piece, or moving focus to it with the arrow keys, marks where it would land and which
  pieces it would capture; your browser works that out with the same rules as the server, which still decides.
- The log names cells as the board does; click an entry to see it on the board.
`;

const es = `# Cómo se juega al Juego Real de Ur

Un juego de carreras para dos, jugado en Mesopotamia hace más de 4.000 años. Cada jugador tiene siete fichas; gana
quien antes consiga hacer el recorrido completo con las siete y sacarlas del tablero.

## El tablero
Veinte casillas en tres filas: **L** (la fila exterior de las claras), **M** (la fila central, compartida) y **K**
(la fila exterior de las oscuras), numeradas del 1 al 8 desde el extremo de salida. Cinco casillas llevan un
**rosetón**: L1, K1, M4, L7 y K7.

## Los dados
Tres dados piramidales (tetraedros), cada uno con dos vértices marcados. Se tiran y se cuentan los vértices
marcados que quedan hacia arriba:

| vértices marcados arriba | puntos | después |
| --- | --- | --- |
| 3 | 5 | vuelves a tirar |
| 0 | 4 | vuelves a tirar |
| 2 | 1 | el turno pasa al rival |
| 1 | 0 | el turno pasa al rival |

## El recorrido
Tus fichas entran por tu fila exterior y avanzan de la casilla 4 a la 1 (puntos 1 a 4), suben por la fila central
de M1 a M7, rodean el extremo por las casillas 7 y 8 del rival hasta M8, pasan por tus casillas 8 y 7 y bajan otra
vez por la fila central de M7 a M1. En M8 (la casilla 14) la ficha **se voltea**: desde allí va de bajada (el
tablero la muestra con un anillo y ↩). M1 es la casilla de salida.

## Un turno
- Tira y haz **una** jugada con los puntos, si puedes; si no hay ninguna posible, la tirada se pierde.
- **Entrar**: con un 1 una ficha que espera entra en tu casilla 1; con un 5, en la casilla 5 (M1).
- **Mover**: una ficha avanza exactamente los puntos. No puede pasar de la casilla de salida.
- **Sacar**: con un 4, todas tus fichas que estén en la casilla de salida M1 salen del tablero a la vez.
- Tras un 4 o un 5 vuelves a tirar, aunque la tirada se haya perdido.

## Al caer en una casilla
- Tus fichas pueden compartir casilla.
- Caer en una casilla con fichas del rival **que van en tu misma dirección** las devuelve todas a la espera; las
  que van en la dirección contraria no se tocan y comparten la casilla.
- **Casillas seguras**: los cinco rosetones y M1. Ahí nadie es capturado.
- **Bonificación del rosetón**: si una jugada o una entrada termina en un rosetón, puedes entrar en el acto otra
  ficha en la casilla 1, o renunciar, si aún te queda alguna esperando.

## Cómo se gana
Gana quien primero saca sus siete fichas. Abandonar, o dejar la partida, da la victoria al rival.

## En este cliente
- Pulsa una ficha que brilla y luego la casilla donde cae; entrar y sacar son un solo clic en la insignia bajo el
  tablero o en los botones.
- La opción «Tirar los dados por mí» tira por ti cuando tirar es lo único que puedes hacer; cuando solo hay una
  jugada posible, el cliente la anuncia y la juega (puedes desactivarlo en la sala).
- Al señalar una ficha que brilla, o llevarle el foco con las flechas, se marca dónde caería y qué fichas
  capturaría; tu navegador lo calcula con las mismas reglas que el servidor, que sigue siendo quien decide.
- El registro nombra las casillas como el tablero; pulsa una entrada para verla en el tablero.
`;

const pt = `# Como se joga o Jogo Real de Ur

Um jogo de corrida para dois, jogado na Mesopotâmia há mais de 4000 anos. Cada jogador tem sete peças; ganha quem
primeiro levar as sete pelo seu percurso e as retirar do tabuleiro.

## O tabuleiro
Vinte casas em três filas: **L** (a fila exterior das claras), **M** (a fila central, partilhada) e **K** (a fila
exterior das escuras), numeradas de 1 a 8 a partir do lado da saída. Cinco casas têm uma **roseta**: L1, K1, M4, L7
e K7.

## Os dados
Três dados piramidais (tetraedros), cada um com dois vértices marcados. Lance-os e conte os vértices marcados que
ficam para cima:

| vértices marcados para cima | avança | depois |
| --- | --- | --- |
| 3 | 5 | lança de novo |
| 0 | 4 | lança de novo |
| 2 | 1 | a vez passa ao adversário |
| 1 | 0 | a vez passa ao adversário |

## O percurso
As suas peças entram pela sua fila exterior e avançam da casa 4 à 1 (pontos 1 a 4), sobem pela fila central de M1
a M7, contornam o fundo pelas casas 7 e 8 do adversário até M8, passam pelas suas casas 8 e 7 e descem de novo pela
fila central de M7 a M1. Em M8 (a casa 14) a peça **é virada**: a partir daí desce (o tabuleiro mostra-a com um
anel e ↩). M1 é a casa de saída.

## Uma vez
- Lance e faça **uma** jogada com os pontos, se puder; se nenhuma for possível, o lançamento perde-se.
- **Entrar**: com um 1 uma peça à espera entra na sua casa 1; com um 5, na casa 5 (M1).
- **Mover**: uma peça avança exatamente os pontos. Não pode passar da casa de saída.
- **Retirar**: com um 4, todas as suas peças na casa de saída M1 saem do tabuleiro de uma vez.
- Depois de um 4 ou de um 5 lança de novo, mesmo que o lançamento se tenha perdido.

## Ao cair numa casa
- As suas peças podem partilhar uma casa.
- Cair numa casa com peças do adversário **que seguem no mesmo sentido** manda-as todas de volta para a espera;
  as que seguem no sentido contrário ficam e partilham a casa.
- **Casas seguras**: as cinco rosetas e M1. Ali ninguém é capturado.
- **Bónus da roseta**: se uma jogada ou uma entrada acaba numa roseta, pode logo entrar mais uma peça na casa 1,
  ou dispensar, se ainda tiver alguma à espera.

## Como se ganha
Ganha quem primeiro retirar as sete peças. Desistir, ou abandonar a partida, dá a vitória ao adversário.

## Neste cliente
- Toque numa peça que brilha e depois na casa onde cai; entrar e retirar são um só clique no distintivo por baixo
  do tabuleiro ou nos botões.
- A opção «Lançar os dados por mim» lança por si sempre que lançar é a sua única opção; quando só há uma jogada
  possível, o cliente anuncia-a e joga-a (pode desligar isso na sala).
- Ao apontar para uma peça que brilha, ou levar-lhe o foco com as setas, marca-se onde cairia e que peças
  capturaria; o seu navegador calcula-o com as mesmas regras do servidor, que continua a ser quem decide.
- O registo dá às casas os nomes do tabuleiro; toque numa entrada para a ver no tabuleiro.
`;

export default { en, es, pt };
